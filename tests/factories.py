"""The factories live in tests/support/factories.py; this name still answers for tests
written before they moved (import from tests.support.factories in new ones)."""

from tests.support.factories import ClubFactory, MembershipFactory, UserFactory

__all__ = ["ClubFactory", "MembershipFactory", "UserFactory"]
