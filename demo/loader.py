"""The demo club `make run` loads: enough to click through every feature built so far."""

from __future__ import annotations

import contextlib
import datetime
import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from demo.history import demo_history
from demo.invitations import demo_invitations
from demo.merges import demo_merges
from demo.play import hand, play
from demo.privacy import demo_privacy
from demo.ratings import demo_ratings
from demo.registration import demo_registration
from demo.roster import demo_roster
from formats.championship import (
    championship_close_state,
    championship_stage_close,
    tie_break_record,
)
from formats.finish import event_finish
from formats.headtohead import h2h_round_draw
from formats.playoffs import playoff_open
from formats.series import series_round_draw
from leagues.services import league_recompute, season_league_scheme_set
from rules import RuleViolation
from scoring.confirmation import PIN_TRIES, Actor
from scoring.models import Deal
from scoring.services import deal_confirm, deal_record, seat_claim
from tournaments.engine.advancement import TieBreakMethod
from tournaments.engine.league import LeagueScheme
from tournaments.models import (
    Club,
    Event,
    EventFormat,
    Membership,
    Player,
    Role,
    Season,
    Stage,
    Table,
)
from tournaments.services import (
    club_stats_refresh,
    event_create,
    membership_add,
    registration_add,
    registration_guest_add,
    registration_status_set,
    stage_confirm,
    stage_draw,
)

DEMO_USERS: list[tuple[str, str, Role | None, bool]] = [
    # (username, full name, role in the demo club, site admin)
    ("director", "Dora Director", Role.DIRECTOR, False),
    ("scorer", "Sami Scorer", Role.SCORER, False),
    ("member", "Mari Member", Role.MEMBER, False),
    # The site admin is an account of its own, in no club, so what the director sees is
    # exactly what a director may do.
    ("admin", "Aada Admin", None, True),
]
DEMO_CLUB_SLUG = "demo"


@transaction.atomic
def demo_load() -> Club:
    """Create or refresh the demo club. Re-running it changes nothing that is already right:
    it puts back what is missing, and takes site-admin powers from any demo account that
    should not have them (an older demo made the director a superuser)."""
    club, _created = Club.objects.update_or_create(
        slug=DEMO_CLUB_SLUG,
        defaults={
            "name": "Lappu Demo Club",
            "description": "Rutupeli, Räväytys, Gin Römi and Tízlapos Römi every Saturday.",
            "language": "fi",
        },
    )
    for username, full_name, role, is_admin in DEMO_USERS:
        user = _demo_user(username, full_name, is_admin=is_admin)
        # A role a visitor changed is left alone: forcing it back could leave the club
        # without its only owner.
        if role is not None and not Membership.objects.filter(club=club, user=user).exists():
            membership_add(club=club, user=user, role=role, by=None)
    club_stats_refresh(club_id=club.pk)
    demo_nights(club)
    demo_finished_night(club)
    demo_late_night(club)
    demo_championship(club)
    demo_championship_live(club)
    demo_series(club)
    demo_swiss(club)
    demo_season(club)
    demo_private_event(club)
    demo_registration(club)
    demo_invitations(club)
    demo_roster(club, past_event_name=FINISHED_NIGHT)
    demo_merges(club)
    demo_privacy(club, FORMAT_PLAYERS)
    demo_history(club)
    demo_ratings(club, FORMAT_PLAYERS[:12])
    return club


def _demo_user(username: str, full_name: str, *, is_admin: bool) -> User:
    first, last = full_name.split(" ", 1)
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"first_name": first, "last_name": last}
    )
    if not user.email:
        # So "Forgot your password?" can be tried: make run prints the mail in its terminal.
        user.email = f"{username}@demo.lappu.example"
        user.save(update_fields=["email"])
    if created:
        # Demo only: each demo account's password is its own name, as README says.
        user.set_password(username)
    if created or (user.is_staff, user.is_superuser) != (is_admin, is_admin):
        user.is_staff = user.is_superuser = is_admin
        user.save()
    return user


DEMO_PLAYERS = [
    "Aino", "Eero", "Helmi", "Jussi", "Kaisa", "Lauri", "Mervi", "Niilo",
    "Anna", "Bence", "Csilla", "Dániel",
]  # fmt: skip


# Each demo night: (name, variant, how many players, deals for table 1, deals for table 2).
# The deals are real entries, scored by the engine as any table's would be.
DEMO_NIGHTS: list[tuple[str, str, int, list[dict[str, object]], list[dict[str, object]]]] = [
    (
        "Rutupeli club night",
        "rutupeli",
        8,
        [
            {
                "out": 0,
                "players": [hand(), hand("AS KD 7H"), hand("QQ 5"), hand(points=35, buys=1)],
            },
            {
                "out": 2,
                "players": [hand("10H JH"), hand("2C 3C"), hand(), hand("AD AH", buys=2)],
            },
            {"out": None, "players": [hand("K"), hand("9 9"), hand("A"), hand("4 4 4")]},
        ],
        [{"out": 1, "players": [hand("7S 8S"), hand(), hand("KH"), hand("AC 5D")]}],
    ),
    (
        "Räväytys evening",
        "ravaytys",
        5,
        [
            {
                "out": 3,
                "ravaytys": True,
                "players": [hand("JK 5H"), hand("2S 9D"), hand("KC KD"), hand(), hand("3H")],
            },
            {
                "out": 0,
                "players": [hand(), hand("AS"), hand("7C 7D 8D"), hand("QH"), hand("2C JK")],
            },
        ],
        [],
    ),
    (
        "Gin Römi head to head",
        "gin_romi",
        4,
        [
            {"ending": "knock", "by": 0, "upper": "9H", "hands": None, "deadwood": [5, 31]},
            {"ending": "romi", "by": 1, "upper": "4C", "hands": None, "deadwood": [22, 0]},
            {"ending": "knock", "by": 0, "upper": "6S", "hands": None, "deadwood": [6, 4]},
        ],
        # Table 2's game is over: it reached 150, and its sheet shows the final settlement.
        [
            {"ending": "void", "by": None, "upper": "KD", "hands": None, "deadwood": None},
            {"ending": "romi", "by": 1, "upper": "4C", "hands": None, "deadwood": [100, 0]},
            {"ending": "romi", "by": 1, "upper": "9D", "hands": None, "deadwood": [30, 0]},
        ],
    ),
    (
        "Tízlapos Römi buli",
        "tizlapos_romi",
        4,
        [
            {
                "winner": 2,
                "ending": "romi",
                "knock_card": None,
                "players": [
                    {"cards": "KS QD 9C 4H 5H 6H 7S 8S 9S 2D", "points": None},
                    {"cards": None, "points": 17},
                    {"cards": None, "points": None},
                    {"cards": None, "points": 33},
                ],
            }
        ],
        [],
    ),
]


# The night whose waiting deal someone corrects, so the history has something to show.
CORRECTED_NIGHT = "Rutupeli club night"


def demo_nights(club: Club) -> None:
    """Club nights in progress, one per game: some deals confirmed, table 1's last one
    waiting, and one correction so the history has something to show."""

    players = [Player.objects.get_or_create(club=club, name=name)[0] for name in DEMO_PLAYERS]
    for offset, (name, variant_id, count, first_deals, second_deals) in enumerate(DEMO_NIGHTS):
        if Event.objects.filter(club=club, name=name).exists():
            continue
        event = event_create(
            published=True,
            club=club,
            name=name,
            date=datetime.date.today() - datetime.timedelta(days=offset),
            venue="Kerhohuone",
            variant_id=variant_id,
            preferred_table_size=4,
        )
        for player in players[:count]:
            registration_add(event=event, player=player, checked_in=True)
        stage = stage_draw(event=event, seed=2026 + offset)
        stage_confirm(stage=stage)
        for table, deals in zip(
            stage.tables.order_by("number"), [first_deals, second_deals], strict=False
        ):
            for number, entry in enumerate(deals, start=1):
                deal = deal_record(
                    table=table,
                    number=number,
                    entry=entry,
                    by=Actor(device="demo-phone-1", seat=0),
                    expected_version=0,
                    request_id=f"demo-{event.pk}-{table.pk}-{number}",
                )
                if number < len(deals) or table.number == 2:  # table 1's latest waits
                    deal_confirm(
                        deal=deal,
                        by=Actor(device="demo-phone-2", seat=1),
                        expected_version=deal.version,
                        request_id=f"demo-confirm-{deal.pk}",
                    )
        if name == CORRECTED_NIGHT:
            _demo_correction(stage.tables.get(number=1))


def _demo_correction(table: Table) -> None:
    """Someone at seat 3 fixes a hand in the waiting deal: the history shows old and new."""

    deal = Deal.objects.get(table=table, number=3)
    entry = dict(deal.entry)
    entry["players"] = [dict(line) for line in entry["players"]]
    entry["players"][3]["cards"] = "4 4"
    deal_record(
        table=deal.table,
        number=3,
        entry=entry,
        by=Actor(device="demo-phone-3", seat=2),
        expected_version=deal.version,
        request_id=f"demo-correct-{deal.pk}",
    )


FINISHED_NIGHT = "Rutupeli last Saturday"


def demo_finished_night(club: Club) -> None:
    """A finished event: all seven games played and confirmed, the event closed (its table
    link says so), and the PIN option on, so the manage page shows each player's PIN."""

    if Event.objects.filter(club=club, name=FINISHED_NIGHT).exists():
        return
    director = get_user_model().objects.get(username="director")
    event = event_create(
        published=True,
        club=club,
        name=FINISHED_NIGHT,
        date=datetime.date(2026, 11, 21),
        venue="Kerhohuone",
        variant_id="rutupeli",
        confirm_needs_pin=True,
    )
    for name in DEMO_PLAYERS[:4]:
        player = Player.objects.get_or_create(club=club, name=name)[0]
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=2025)
    stage_confirm(stage=stage)
    (table,) = stage.tables.all()
    hands = ["KH 5S", "AC", "7D 7C 2S", "QS"]
    for number in range(1, 8):
        out = number % 4
        deal = deal_record(
            table=table,
            number=number,
            entry={
                "out": out,
                "players": [hand(None if seat == out else hands[seat]) for seat in range(4)],
            },
            # The phone took its seat with the seat's PIN, as the event asks.
            by=Actor(device="demo-phone-a", seat=out, pin_given=True),
            expected_version=0,
            request_id=f"demo-finished-{number}",
        )
        if number < 7:
            deal_confirm(
                deal=deal,
                by=Actor(device="demo-desk", user=director),
                expected_version=deal.version,
                request_id=f"demo-finished-confirm-{number}",
            )
    _demo_look_at(table, deal)
    event_finish(event=event, confirmed=True)


def _demo_look_at(table: Table, deal: Deal) -> None:
    """What the manage page asks its director to look at: the last deal confirmed from a seat
    taken only after it was entered (flagged), and a seat's PIN locked by wrong tries."""
    seats = {seat.position: seat.pin for seat in table.seats.all()}
    late = (deal.entry["out"] + 1) % len(seats)
    claim = seat_claim(table=table, position=late, device="demo-phone-late", pin=seats[late])
    deal_confirm(
        deal=deal,
        by=Actor(
            device=claim.device, seat=late, claimed_at=claim.claimed_at, pin_given=claim.pin_given
        ),
        expected_version=deal.version,
        request_id="demo-finished-confirm-late",
        pin=seats[late],
    )
    guessed = (late + 1) % len(seats)
    wrong = "0" * len(seats[guessed]) if set(seats[guessed]) != {"0"} else "1" * len(seats[guessed])
    for _try in range(PIN_TRIES):
        # Refused, and counted: after the last try this phone waits before its next.
        with contextlib.suppress(RuleViolation):
            seat_claim(table=table, position=guessed, device="demo-phone-guessing", pin=wrong)


LATE_NIGHT = "Rutupeli Tuesday, late arrivals"


def demo_late_night(club: Club) -> None:
    """Two tables seated, one of them already playing, and two players checked in after the
    draw: the manage page proposes seating them at the table yet to play. A guest of an
    earlier event stays out of the player picker until asked for."""

    if Event.objects.filter(club=club, name=LATE_NIGHT).exists():
        return
    event = event_create(
        published=True,
        club=club,
        name=LATE_NIGHT,
        date=datetime.date.today(),
        venue="Kerhohuone",
        variant_id="rutupeli",
        preferred_table_size=4,
    )
    for name in DEMO_PLAYERS[:8]:
        player = Player.objects.get_or_create(club=club, name=name)[0]
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=2031)
    stage_confirm(stage=stage)
    first = stage.tables.get(number=1)
    deal_record(
        table=first,
        number=1,
        entry={"out": 0, "players": [hand(), hand("AS KD"), hand("QQ 5"), hand("7H")]},
        by=Actor(device="demo-phone-late", seat=0),
        expected_version=0,
        request_id=f"demo-late-{event.pk}",
    )
    for name in DEMO_PLAYERS[8:10]:
        player = Player.objects.get_or_create(club=club, name=name)[0]
        registration_add(event=event, player=player, checked_in=True)  # after the draw: late
    past = Event.objects.filter(club=club, name=FINISHED_NIGHT).first()
    if past is not None and not Player.objects.filter(club=club, name="Vieras Ville").exists():
        guest = registration_guest_add(event=past, name="Vieras Ville", checked_in=False)
        registration_status_set(registration=guest, status="withdrawn", confirmed=True)


# -- the formats: championships, a reseated series, a Swiss ------------------------------------

# More players for the formats' events, after DEMO_PLAYERS (who keep their places): the
# first names in turn, each with the next surname (14 and 4 give 28 different names), so
# the list is the same on every load and no event is one family.
EXTRA_FIRST_NAMES = [
    "Antti", "Elina", "Heikki", "Johanna", "Kalle", "Leena", "Matti",
    "Minna", "Pekka", "Riikka", "Timo", "Sanna", "Ville", "Tuula",
]  # fmt: skip
EXTRA_SURNAMES = ["Virtanen", "Korhonen", "Mäkinen", "Nieminen"]
FORMAT_PLAYERS = DEMO_PLAYERS + [
    f"{EXTRA_FIRST_NAMES[i % len(EXTRA_FIRST_NAMES)]} {EXTRA_SURNAMES[i % len(EXTRA_SURNAMES)]}"
    for i in range(28)
]

CHAMPIONSHIP = "Rutupeli championship 2026"
CHAMPIONSHIP_LIVE = "Rutupeli winter cup"
SERIES = "Räväytys series, five rounds"
SWISS = "Gin Römi Swiss"

RUTUPELI_DEALS = 7  # seven games, each its own contract


def _format_players(club: Club, count: int, first: int = 0) -> list[Player]:
    return [
        Player.objects.get_or_create(club=club, name=name)[0]
        for name in FORMAT_PLAYERS[first : first + count]
    ]


def _format_event(
    club: Club,
    *,
    name: str,
    date: datetime.date,
    variant_id: str,
    format: EventFormat,
    format_options: dict[str, object],
    players: list[Player],
    tie_breaks: Sequence[str] = (),
) -> Event:
    event = event_create(
        published=True,
        club=club,
        name=name,
        date=date,
        venue="Kerhohuone",
        variant_id=variant_id,
        preferred_table_size=4,
        format=format,
        format_options=format_options,
        tie_breaks=tie_breaks,
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    return event


def _rutupeli_deal(rng: random.Random, seats: int) -> dict[str, object]:
    out = rng.randrange(seats)
    return {
        "out": out,
        "players": [
            hand() if seat == out else hand(points=5 * rng.randint(1, 12)) for seat in range(seats)
        ],
    }


def _scripted_game(seats: int, script: Callable[[int, list[int]], int]) -> list[dict[str, object]]:
    """A Rutupeli game whose deals `script` sets: given the deal's index and the points
    (50 each), it sets the points it wants and returns who went out."""
    deals: list[dict[str, object]] = []
    for number in range(RUTUPELI_DEALS):
        points = [50] * seats
        out = script(number, points)
        deals.append(
            {
                "out": out,
                "players": [
                    hand() if seat == out else hand(points=points[seat]) for seat in range(seats)
                ],
            }
        )
    return deals


def _tied_deal(number: int, points: list[int]) -> int:
    if number < 3:
        points[1] = 10
        return 0
    if number < 6:
        points[0] = 10
        return 1
    points[0] = points[1] = 10
    return 2


def _tied_game(seats: int) -> list[dict[str, object]]:
    """Seats 0 and 1 level on every tie order Rutupeli has (total, last deal, deals won):
    each goes out three times while the other takes 10, and a third player the last deal,
    where both take 10 again. The others take 50 a deal: the two tie for the table's win."""
    return _scripted_game(seats, _tied_deal)


def _deals_won_deal(number: int, points: list[int]) -> int:
    if number < 4:
        points[1] = 20
        return 0
    if number < 6:
        points[0] = 30
        return 1
    points[0], points[1] = 25, 5
    return 2


def _deals_won_game(seats: int) -> list[dict[str, object]]:
    """Seats 0 and 1 level on the total (85): seat 0 went out four times, seat 1 twice but
    took 5 to seat 0's 25 in the last deal. Rutupeli's usual order (last deal first) makes
    seat 1 the table's winner; an event that puts deals won first, seat 0."""
    return _scripted_game(seats, _deals_won_deal)


def _play_off(table: Table, director: User) -> None:
    """The director has `table`'s tied players play a play-off deal on the site: the
    second of them goes out, and the confirmed deal records the tie-break."""
    playoff = playoff_open(table=table, by=director)
    seats = playoff.seats.count()
    hands = [hand(points=25) for _ in range(seats)]
    hands[1] = hand()
    play(playoff, [{"out": 1, "players": hands}])


def _settle_ties(stage: Stage, director: User, rng: random.Random) -> int:
    """Record how the director settled every tie the cut runs through (a card drawn)."""
    settled = 0
    while ties := championship_close_state(stage=stage).ties:
        tie, table = ties[0]
        order = [placing.player for placing in tie.players]
        rng.shuffle(order)
        tie_break_record(
            table=table,
            stage=stage,
            method=TieBreakMethod.CARD_DRAW,
            order=order,
            note="Each drew a card; the higher card went on.",
            by=director,
        )
        settled += 1
    return settled


def _play_championship(
    event: Event,
    director: User,
    *,
    seed: int,
    stages: int | None = None,
    tie: bool = False,
    first_game: Callable[[int], list[dict[str, object]]] | None = None,
) -> Stage:
    """Play the championship's stages through the scoring services and close each one,
    settling the ties the cut runs through as a director would (with `tie`, the first
    stage's table 1 ties at the top on purpose): all of them to the champion, or the first
    `stages`, the next then seated and left to play (`first_game`: the game the first
    stage's table 1 plays, by its seats). Returns the stage in play, or the last one
    closed."""
    rng = random.Random(seed)
    stage = stage_draw(event=event, seed=seed)
    while True:
        stage_confirm(stage=stage)
        if stages is not None and stage.number > stages:
            return stage
        for table in stage.tables.order_by("number"):
            seats = table.seats.count()
            if tie and stage.number == 1 and table.number == 1:
                entries = _tied_game(seats)
            elif first_game is not None and stage.number == 1 and table.number == 1:
                entries = first_game(seats)
            else:
                entries = [_rutupeli_deal(rng, seats) for _ in range(RUTUPELI_DEALS)]
            play(table, entries)
        if tie and stage.number == 1:
            _play_off(stage.tables.get(number=1), director)
        _settle_ties(stage, director, rng)
        following = championship_stage_close(stage=stage, by=director, seed=seed + stage.number)
        if following.pk == stage.pk:
            return stage
        stage = following


def demo_championship(club: Club) -> None:
    """A finished 40-player Rutupeli championship, table winners going on, stage after
    stage to a champion; a tie at the top of table 1 settled by a play-off deal played on
    the site, any other the cut runs through by a card draw."""
    if Event.objects.filter(club=club, name=CHAMPIONSHIP).exists():
        return
    director = get_user_model().objects.get(username="director")
    event = _format_event(
        club,
        name=CHAMPIONSHIP,
        date=datetime.date(2026, 11, 14),
        variant_id="rutupeli",
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": 1, "lucky_losers": False},
        players=_format_players(club, 40),
    )
    _play_championship(event, director, seed=4040, tie=True)


# The winter cup breaks a tie by deals won before the last deal (Rutupeli's usual order
# has them the other way): its stage 1 table 1 is won so, as its result sheet says.
CHAMPIONSHIP_LIVE_TIE_BREAKS = ("total", "deals_won", "last_deal", "director", "head_to_head")


def demo_championship_live(club: Club) -> None:
    """A 12-player championship under way: stage 1 closed (the top two of each table went
    on), the final seated, three deals confirmed and the fourth waiting. Its tie-breaks put
    deals won first, and its first table was won by them."""
    if Event.objects.filter(club=club, name=CHAMPIONSHIP_LIVE).exists():
        return
    director = get_user_model().objects.get(username="director")
    event = _format_event(
        club,
        name=CHAMPIONSHIP_LIVE,
        date=datetime.date.today(),
        variant_id="rutupeli",
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": 2, "lucky_losers": False},
        players=_format_players(club, 12),
        tie_breaks=CHAMPIONSHIP_LIVE_TIE_BREAKS,
    )
    stage = _play_championship(event, director, seed=1212, stages=1, first_game=_deals_won_game)
    rng = random.Random(1213)
    for table in stage.tables.order_by("number"):
        seats = table.seats.count()
        deals = 4 if table.number == 1 else 2
        play(table, [_rutupeli_deal(rng, seats) for _ in range(deals)], confirmed=deals - 1)


# Räväytys hands with no card more often than the two decks hold, whoever gets which.
RAVAYTYS_HANDS = ["2H", "3H 3S", "KD 5C", "JK 9D", "4H 4S 4D", "QC QD 8S", "AS 7H"]


def _ravaytys_game(rng: random.Random, seats: int, deals: int) -> list[dict[str, object]]:
    game: list[dict[str, object]] = []
    for _number in range(deals):
        out = rng.randrange(seats)
        hands = rng.sample(RAVAYTYS_HANDS, seats)
        game.append(
            {
                "out": out,
                "players": [hand(None if seat == out else hands[seat]) for seat in range(seats)],
            }
        )
    return game


def demo_series(club: Club) -> None:
    """A 16-player Räväytys series of five rounds, reseated so that nobody meets anyone
    twice: four rounds played, the fifth seated (its table 1 has begun)."""
    if Event.objects.filter(club=club, name=SERIES).exists():
        return
    event = _format_event(
        club,
        name=SERIES,
        date=datetime.date.today() - datetime.timedelta(days=7),
        variant_id="ravaytys",
        format=EventFormat.SERIES,
        format_options={
            "rounds": 5,
            "reseat": "avoid_repeats",
            "clubs_apart": False,
            "series_ranking": "points",
        },
        players=_format_players(club, 16, first=12),
    )
    rng = random.Random(1616)
    deals = event.variant.max_deals
    for number in range(1, 6):
        stage = series_round_draw(event=event, seed=1600 + number)
        stage_confirm(stage=stage)
        for table in stage.tables.order_by("number"):
            seats = table.seats.count()
            if number < 5:
                play(table, _ravaytys_game(rng, seats, deals))
            elif table.number == 1:
                play(table, _ravaytys_game(rng, seats, 2), confirmed=1)


def _gin_match(rng: random.Random, winner: int) -> list[dict[str, object]]:
    """A match to 150: the loser's römi first, then the winner's two, the last over 150."""
    loser = 1 - winner

    def romi(by: int, against: int, upper: str) -> dict[str, object]:
        deadwood = [0, 0]
        deadwood[1 - by] = against
        return {"ending": "romi", "by": by, "upper": upper, "hands": None, "deadwood": deadwood}

    return [
        romi(loser, 5 * rng.randint(2, 8), "9H"),
        romi(winner, 100, "4C"),
        romi(winner, 5 * rng.randint(6, 14), "KD"),
    ]


def demo_swiss(club: Club) -> None:
    """An 8-player Gin Römi Swiss of three rounds: two played, the third paired (with no
    rematch), one of its matches over and another under way."""
    if Event.objects.filter(club=club, name=SWISS).exists():
        return
    event = _format_event(
        club,
        name=SWISS,
        date=datetime.date.today() - datetime.timedelta(days=3),
        variant_id="gin_romi",
        format=EventFormat.SWISS,
        format_options={"rounds": 3, "bye_wins": 1, "bye_points": 0},
        players=_format_players(club, 8, first=28),
    )
    rng = random.Random(888)
    for number in range(1, 4):
        stage = h2h_round_draw(event=event, seed=800 + number)
        stage_confirm(stage=stage)
        for table in stage.tables.order_by("number"):
            match = _gin_match(rng, rng.randrange(2))
            if number < 3 or table.number == 1:
                play(table, match)
            elif table.number == 2:
                play(table, match[:2], confirmed=1)


SEASON = "Syyskausi 2026"
LEAGUE_NIGHTS = ["Rutupeli league night 1", "Rutupeli league night 2", "Rutupeli league night 3"]


def demo_season(club: Club) -> None:
    """The autumn season's league table: three finished league nights of eight, last
    Saturday's night and the championship, placement points with the best three of each
    player's events counted (so some are struck through), at least two events to be ranked;
    the director changed the scheme once, so the page shows that decision."""
    if Season.objects.filter(club=club, name=SEASON).exists():
        return
    season = Season.objects.create(
        club=club,
        name=SEASON,
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    Event.objects.filter(club=club, name__in=[FINISHED_NIGHT, CHAMPIONSHIP]).update(season=season)
    rng = random.Random(2026)
    players = _format_players(club, 12)
    for number, name in enumerate(LEAGUE_NIGHTS):
        event = event_create(
            published=True,
            club=club,
            season=season,
            name=name,
            date=datetime.date(2026, 10, 3) + datetime.timedelta(weeks=2 * number),
            venue="Kerhohuone",
            variant_id="rutupeli",
        )
        # Eight of the twelve each night: not everyone plays every night.
        for player in rng.sample(players, 8):
            registration_add(event=event, player=player, checked_in=True)
        stage = stage_draw(event=event, seed=3000 + number)
        stage_confirm(stage=stage)
        for table in stage.tables.order_by("number"):
            seats = table.seats.count()
            play(table, [_rutupeli_deal(rng, seats) for _deal in range(7)])
        event_finish(event=event, confirmed=True)
    director = get_user_model().objects.get(username="director")
    scheme = LeagueScheme(points=(10, 8, 6, 5, 4, 3, 2, 1), min_events=1)
    season_league_scheme_set(season=season, scheme=scheme, by=director, note="Season opens.")
    season_league_scheme_set(
        season=season,
        scheme=replace(scheme, best_n=3, min_events=2),
        by=director,
        note="Best three events count, as voted at the autumn meeting.",
    )
    league_recompute(season_id=season.pk)


PRIVATE_EVENT = "Rutupeli next Saturday (not published yet)"


def demo_private_event(club: Club) -> None:
    """An event the club has not published: its directors see it, nobody else does."""
    if Event.objects.filter(club=club, name=PRIVATE_EVENT).exists():
        return
    event = event_create(
        club=club,
        name=PRIVATE_EVENT,
        date=datetime.date.today() + datetime.timedelta(days=5),
        venue="Kerhohuone",
        variant_id="rutupeli",
    )
    for player in _format_players(club, 6):
        registration_add(event=event, player=player)
