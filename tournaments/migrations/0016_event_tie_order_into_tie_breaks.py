"""One tie order per event: a table tie order stored in an event's rules (the engine's
``tie_order``, which `event_create` once accepted) moves into the event's tie-break
precedence, and the rules go back to the game's own tie order. The printed result sheet
read the one, every other output the other: after this there is nothing left to differ."""

from django.db import migrations

from rules import RuleViolation
from rules.games import game_spec
from tournaments.engine.tiebreaks import tie_break_precedence


def move_tie_orders(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    for event in Event.objects.exclude(variant_options={}).iterator():
        options = event.variant_options if isinstance(event.variant_options, dict) else {}
        stored = options.get("tie_order")
        try:
            spec = game_spec(event.variant_id)
        except RuleViolation:
            continue  # a game the site no longer has: its pages say so already
        default = list(spec.defaults["tie_order"])
        if stored is None or list(stored) == default:
            continue
        if not event.tie_breaks:
            # A precedence the director chose is what the ranking already followed: kept.
            try:
                event.tie_breaks = list(
                    tie_break_precedence(list(spec.tie_breaks_of(stored)), game=event.variant_id)
                )
            except RuleViolation:
                event.tie_breaks = []  # an order the site cannot read: the game's default
        event.variant_options = {**options, "tie_order": default}
        event.save(update_fields=["variant_options", "tie_breaks"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_table_playoff_of"),
    ]

    operations = [
        migrations.RunPython(move_tie_orders, migrations.RunPython.noop),
    ]
