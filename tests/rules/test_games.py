"""The registry: each game described once, by its own module (rules.games)."""

from __future__ import annotations

import dataclasses
import json
import pickle
from collections.abc import Iterator, Mapping, Sequence

import pytest

import rules
from rules import (
    GAMES,
    VARIANT_IDS,
    BuliLedger,
    DealScore,
    GameSpec,
    RulesError,
    RuleViolation,
    Settlement,
    TableSizes,
    TableStanding,
    Variant,
    contract_games,
    describe_options,
    game_spec,
    get_variant,
    gin,
    parse_entry,
    score_deal,
    table_standing,
    tizlapos,
)
from rules.games import _REGISTERED, Option, option_names, register

MODULES = {
    "ravaytys": contract_games,
    "rutupeli": contract_games,
    "gin_romi": gin,
    "tizlapos_romi": tizlapos,
}


def stored(value: object) -> object:
    """``value`` as a variant's ``to_dict`` writes it (lists, plain dicts)."""
    return json.loads(json.dumps(value, default=lambda c: c.to_dict()))


# -- every game has its spec ---------------------------------------------------------------------


def test_every_game_id_has_a_spec_in_the_sites_order() -> None:
    assert tuple(GAMES) == VARIANT_IDS
    assert len(GAMES) == len(VARIANT_IDS)
    for variant_id in VARIANT_IDS:
        spec = GAMES[variant_id]
        assert isinstance(spec, GameSpec)
        assert spec.id == variant_id
        assert game_spec(variant_id) is spec
        assert game_spec(get_variant(variant_id)) is spec


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_the_games_module_registers_its_spec(variant_id: str) -> None:
    spec = game_spec(variant_id)
    module = MODULES[variant_id]
    assert spec.parse_entry is module.parse_entry
    assert spec.score_deal is module.score_deal
    assert spec.standing is module.standing
    assert spec in vars(module).values()


@pytest.mark.parametrize(
    ("variant_id", "family", "variant_class"),
    [
        ("ravaytys", "contract", Variant),
        ("rutupeli", "contract", Variant),
        ("gin_romi", "gin", gin.GinVariant),
        ("tizlapos_romi", "tizlapos", tizlapos.TizVariant),
    ],
)
def test_family_and_settings_class(variant_id: str, family: str, variant_class: type) -> None:
    spec = game_spec(variant_id)
    variant = get_variant(variant_id)
    assert spec.family == family == variant.family
    assert spec.variant_class is variant_class
    assert type(variant) is variant_class
    assert variant.is_contract_game is (family == "contract")
    assert spec.name == variant.name


@pytest.mark.parametrize("game", ["canasta", "", "GIN_ROMI"])
def test_no_spec_for_another_game(game: str) -> None:
    with pytest.raises(RuleViolation) as info:
        game_spec(game)
    assert (info.value.code, info.value.field) == ("bad_variant", "variant")
    assert "ravaytys" in info.value.message


# -- options: every setting, its default and its words -------------------------------------------


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_an_option_for_every_setting_with_plain_words(variant_id: str) -> None:
    spec = game_spec(variant_id)
    settings = {f.name for f in dataclasses.fields(spec.variant_class)} - {"id"}
    assert [o.name for o in spec.options] == list(spec.defaults)
    assert set(spec.defaults) == settings
    for option in spec.options:
        assert spec.option(option.name) is option
        assert option.text and option.text[0].isupper() and not option.text.endswith(".")
        assert option.low <= option.high
    assert spec.option("colour") is None


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_get_variant_takes_the_specs_defaults(variant_id: str) -> None:
    spec = game_spec(variant_id)
    variant = get_variant(variant_id)
    assert variant.to_dict() == {"id": variant_id, **stored(dict(spec.defaults))}  # type: ignore[dict-item]
    for name, default in spec.defaults.items():
        assert getattr(variant, name) == default
    # The variant has its own copy of a default table.
    variant.penalty_table["A"] += 1
    assert get_variant(variant_id).penalty_table == spec.defaults["penalty_table"]


def test_a_games_own_settings_are_only_its_own() -> None:
    own = {
        variant_id: {o.name for o in game_spec(variant_id).options}
        - {o.name for o in game_spec("ravaytys").options}
        for variant_id in VARIANT_IDS
    }
    assert own["rutupeli"] == set()
    assert own["gin_romi"] and all(name.startswith("gin_") for name in own["gin_romi"])
    assert own["tizlapos_romi"] and all(name.startswith("tiz_") for name in own["tizlapos_romi"])
    assert option_names() == {o.name for spec in GAMES.values() for o in spec.options}
    with pytest.raises(RuleViolation) as info:
        get_variant("gin_romi", tiz_elimination=50)
    assert "Gin Römi" in info.value.message
    assert not hasattr(get_variant("ravaytys"), "gin_target")


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_stored_variants_hold_the_games_settings_only(variant_id: str) -> None:
    variant = get_variant(variant_id)
    data = variant.to_dict()
    assert set(data) == {"id", *game_spec(variant_id).defaults}
    assert Variant.from_dict(stored(data)) == variant  # type: ignore[arg-type]
    # Events stored before: the flat variant wrote every game's settings, at any value.
    legacy = {
        **{name: stored(o.default) for s in GAMES.values() for o in s.options for name in [o.name]},
        **data,
    }
    legacy.update({k: 1 for k in option_names() - set(data) if k.endswith("_units")})
    assert set(legacy) == {"id", *option_names()}
    assert Variant.from_dict(stored(legacy)) == variant  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(variant)) == variant


def test_a_stored_tizlapos_variant_keeps_its_own_settings() -> None:
    variant = get_variant("tizlapos_romi", tiz_joker_penalty=15, tiz_kis_buli=True)
    back = Variant.from_dict(stored(variant.to_dict()))  # type: ignore[arg-type]
    assert isinstance(back, tizlapos.TizVariant)
    assert (back.tiz_joker_penalty, back.penalty_table["JOKER"], back.tiz_kis_buli) == (
        15,
        15,
        True,
    )


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_the_rules_page_ends_with_the_games_own_rows(variant_id: str) -> None:
    variant = get_variant(variant_id)
    own = game_spec(variant_id).describe(variant, str)
    rows = describe_options(variant)
    assert own and rows[-len(own) :] == own
    # The game's rows come out in the reader's language too.
    marked = describe_options(variant, lambda text: f"«{text}»")
    assert marked[-1][0] == f"«{own[-1][0]}»"


# -- one default, one game -----------------------------------------------------------------------


@pytest.fixture
def house_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tízlapos's spec with a joker left in hand costing 25 instead of 20."""
    spec = game_spec("tizlapos_romi")

    def changed(option: Option) -> Option:
        if option.name == "tiz_joker_penalty":
            return dataclasses.replace(option, default=25)
        if option.name == "penalty_table":
            assert isinstance(option.default, Mapping)
            return dataclasses.replace(option, default={**option.default, "JOKER": 25})
        return option

    new = dataclasses.replace(spec, options=tuple(changed(o) for o in spec.options))
    monkeypatch.setitem(_REGISTERED, "tizlapos_romi", new)
    yield


def test_a_default_changed_in_a_spec_changes_that_game_only() -> None:
    before = {variant_id: get_variant(variant_id).to_dict() for variant_id in VARIANT_IDS}
    with pytest.MonkeyPatch.context() as patch:
        spec = game_spec("tizlapos_romi")
        options = tuple(
            dataclasses.replace(o, default=150) if o.name == "tiz_elimination" else o
            for o in spec.options
        )
        patch.setitem(_REGISTERED, "tizlapos_romi", dataclasses.replace(spec, options=options))
        after = {variant_id: get_variant(variant_id).to_dict() for variant_id in VARIANT_IDS}
        assert after["tizlapos_romi"] == {**before["tizlapos_romi"], "tiz_elimination": 150}
        for variant_id in ("ravaytys", "rutupeli", "gin_romi"):
            assert after[variant_id] == before[variant_id]
        # A variant stored before keeps what it was played with.
        old = Variant.from_dict(before["tizlapos_romi"])
        assert isinstance(old, tizlapos.TizVariant) and old.tiz_elimination == 100
    assert get_variant("tizlapos_romi").to_dict() == before["tizlapos_romi"]


@pytest.mark.usefixtures("house_rule")
def test_a_joker_left_in_a_tizlapos_hand_costs_what_the_spec_says() -> None:
    tiz = get_variant("tizlapos_romi")
    assert (tiz.tiz_joker_penalty, tiz.penalty_table["JOKER"]) == (25, 25)
    hand = "JK 2S 5H 8D JC KS 4C 7S 10H QD"  # nothing for the joker to join: 25 + 66
    assert rules.price_text(tiz, "JK 9") == 34
    players: list[object] = [{"cards": "AS KS QS JS 5H 5D 5C 7C 8C 9C"}, {"cards": hand}]
    score = score_deal(tiz, 1, {"winner": 0, "ending": "romi", "players": players})
    assert score.points == (-10, 25 + 66)
    assert get_variant("ravaytys").penalty_table["JOKER"] == 50


# -- dispatch ------------------------------------------------------------------------------------


def test_scoring_calls_the_specs_functions(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    spec = game_spec("gin_romi")
    answer = TableStanding((1, 2), False, False, (1, 0), None)

    def parse(variant: Variant, number: int, data: Mapping[str, object]) -> str:
        calls.append(f"parse {variant.id} {number} {sorted(data)}")
        return "entry"

    def score(variant: Variant, entry: str) -> DealScore:
        calls.append(f"score {entry}")
        return DealScore((7, 0))

    def standing(variant: Variant, seats: int, deals: Sequence[DealScore]) -> TableStanding:
        calls.append(f"standing {seats} {len(deals)}")
        return answer

    fake = dataclasses.replace(spec, parse_entry=parse, score_deal=score, standing=standing)
    monkeypatch.setitem(_REGISTERED, "gin_romi", fake)
    variant = get_variant("gin_romi")
    assert parse_entry(variant, 3, {"x": 1}) == "entry"
    assert score_deal(variant, 2, {"y": 1}).points == (7, 0)
    assert table_standing(variant, 2, [DealScore((1, 0))]) is answer
    assert calls == [
        "parse gin_romi 3 ['x']",
        "parse gin_romi 2 ['y']",
        "score entry",
        "standing 2 1",
    ]
    # The deal number is still checked at the door.
    with pytest.raises(RuleViolation) as info:
        score_deal(variant, 0, {})
    assert info.value.code == "bad_deal"


def test_a_module_refuses_another_games_variant() -> None:
    with pytest.raises(RulesError):
        gin.standing(get_variant("tizlapos_romi"), 2, [])
    with pytest.raises(RulesError):
        tizlapos.standing(get_variant("gin_romi"), 2, [])
    with pytest.raises(RulesError):
        contract_games.standing(get_variant("gin_romi"), 2, [])


# -- what the registry refuses -------------------------------------------------------------------


def test_a_game_registers_once_with_an_option_for_every_setting() -> None:
    spec = game_spec("rutupeli")
    with pytest.raises(RulesError, match="twice"):
        register(spec)
    with pytest.raises(RulesError, match="buy_cap"):
        register(
            dataclasses.replace(
                spec, id="rutupeli_2", options=tuple(o for o in spec.options if o.name != "buy_cap")
            )
        )
    with pytest.raises(RulesError, match="family"):
        register(dataclasses.replace(spec, id="rutupeli_3", family="poker"))
    assert "rutupeli_2" not in GAMES and "rutupeli_3" not in GAMES


# -- table sizes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "options", "preferred", "sizes"),
    [
        ("gin_romi", {}, None, (2, 2, 2)),
        ("gin_romi", {}, 4, (2, 2, 2)),
        ("ravaytys", {}, None, (3, 6, 4)),
        ("rutupeli", {}, None, (3, 6, 4)),
        ("tizlapos_romi", {}, None, (3, 6, 4)),
        ("tizlapos_romi", {}, 5, (3, 6, 5)),
        ("tizlapos_romi", {}, 2, (3, 6, 3)),
        ("ravaytys", {}, 8, (3, 6, 6)),
        # Within the players the variant allows.
        ("ravaytys", {"min_players": 4}, None, (4, 6, 4)),
        ("ravaytys", {"min_players": 5, "max_players": 8}, None, (5, 6, 5)),
        ("rutupeli", {"max_players": 3}, None, (3, 3, 3)),
        ("rutupeli", {"max_players": 2}, None, (2, 2, 2)),
        ("ravaytys", {"min_players": 7, "max_players": 8}, None, (7, 7, 7)),
    ],
)
def test_table_sizes(
    variant_id: str, options: dict[str, object], preferred: int | None, sizes: tuple[int, ...]
) -> None:
    variant = get_variant(variant_id, **options)
    got = game_spec(variant).table_sizes(variant, preferred)
    assert isinstance(got, TableSizes)
    assert (got.min_size, got.max_size, got.preferred) == sizes
    assert variant.min_players <= got.min_size <= got.preferred <= got.max_size
    assert got.max_size <= variant.max_players


def test_the_games_own_table_sizes() -> None:
    assert game_spec("gin_romi").tables == TableSizes(2, 2, 2)
    for variant_id in ("ravaytys", "rutupeli", "tizlapos_romi"):
        assert game_spec(variant_id).tables == TableSizes(3, 6, 4)


# -- räväytys ------------------------------------------------------------------------------------


def test_only_ravaytys_records_going_out_at_once() -> None:
    assert [v for v in VARIANT_IDS if game_spec(v).records_ravaytys] == ["ravaytys"]


# -- the games' typed accounts -------------------------------------------------------------------


def gin_deal(points: tuple[int, int], winner: int | None) -> DealScore:
    return DealScore(points=points, flags={"winner": winner})


def test_gin_settlement_is_typed_alongside_extra() -> None:
    variant = get_variant("gin_romi")
    going = table_standing(variant, 2, [gin_deal((20, 0), 0)])
    assert going.settlement is None and going.ledger is None
    assert going.extra["settlement"] is None

    deals = [gin_deal((0, 50), 1), gin_deal((80, 0), 0), gin_deal((90, 0), 0)]
    over = table_standing(variant, 2, deals)
    settlement = over.settlement
    assert isinstance(settlement, Settlement)
    assert settlement == Settlement(
        points=(170, 50),
        deal_bonus=(50, 25),
        game_bonus=(150, 0),
        shutout_bonus=(0, 0),
        final=(370, 75),
        winner=0,
        result=295,
    )
    assert (settlement.winner, settlement.loser) == (over.winner, 1)
    assert over.extra["settlement"] == settlement.to_dict()
    assert over.extra["settlement"]["final"] == [370, 75]  # type: ignore[index]
    assert over.ledger is None
    hash(settlement)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settlement.result = 0  # type: ignore[misc]


def test_tizlapos_ledger_is_typed_alongside_extra() -> None:
    variant = get_variant("tizlapos_romi")
    flags = {"winner": 0, "ending": "romi", "present": [True] * 3}
    deals = [DealScore((-10, 60, 70), flags), DealScore((-10, 40, 30), flags)]
    result = table_standing(variant, 3, deals)
    ledger = result.ledger
    assert isinstance(ledger, BuliLedger)
    assert ledger == BuliLedger(
        active=(0,),
        eliminated=(1, 2),
        units=(8 + 20, -4 - 10, -4 - 10),
        pot=0,
        reentries=(0, 0, 0),
        out_after=(None, 2, 2),
        ending="last_player",
        deals_won=(2, 0, 0),
    )
    assert result.extra == {**ledger.to_dict(), "deals_played": 2}
    assert result.extra["units"] == list(ledger.units)
    assert result.extra["eliminated"] == [1, 2]
    assert result.settlement is None
    hash(ledger)

    fresh = table_standing(variant, 4, [])
    assert fresh.ledger is not None and fresh.ledger.active == (0, 1, 2, 3)
    assert fresh.ledger.ending is None and fresh.ledger.pot == 0


@pytest.mark.parametrize("variant_id", ["ravaytys", "rutupeli"])
def test_contract_games_have_neither(variant_id: str) -> None:
    result = table_standing(get_variant(variant_id), 3, [])
    assert result.settlement is None and result.ledger is None
    assert result.details is None


def test_a_standing_built_by_hand_has_no_typed_account() -> None:
    standing = TableStanding((0, 0), True, False, (0, 1), None, extra={"units": [1, -1]})
    assert standing.ledger is None and standing.settlement is None
