"""Reads of the accounts app."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser


def unverified_address(user: AbstractBaseUser) -> EmailAddress | None:
    """The address a signed-up person still has to verify, or None when they may use the
    account: an address is verified, or the account was made without sign-up (the admin,
    the demo, createsuperuser), which keeps no address records."""
    addresses = list(EmailAddress.objects.filter(user=user))
    if not addresses or any(a.verified for a in addresses):
        return None
    return next((a for a in addresses if a.primary), addresses[0])


def account_usable(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Signed in, with nothing left to verify: who may start a club."""
    return bool(user.is_authenticated) and unverified_address(user) is None  # type: ignore[arg-type]
