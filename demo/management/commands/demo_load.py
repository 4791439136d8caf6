from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from demo.loader import DEMO_USERS, demo_load


class Command(BaseCommand):
    help = "Load (or refresh) the demo club and its demo accounts."

    def handle(self, *args: Any, **options: Any) -> None:
        club = demo_load()
        self.stdout.write(self.style.SUCCESS(f"Demo club ready: /clubs/{club.slug}/"))
        self.stdout.write("Demo accounts (password = user name):")
        for username, full_name, role, is_admin in DEMO_USERS:
            what = role.label if role is not None else "no club role"
            extra = ", site admin: /admin/" if is_admin else ""
            self.stdout.write(f"  {username:<9} password {username:<9} {what} ({full_name}{extra})")
