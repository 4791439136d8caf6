"""Forms every app shares."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator


class SignInForm(AuthenticationForm):
    """Django's sign-in form, with its user name length actually enforced.

    AuthenticationForm sets the field's max_length after the field is built, so no length
    validator exists and any length reaches authenticate(); a failed attempt is then stored
    (django-axes) in a 255-character column, which PostgreSQL refuses with a server error.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(getattr(field, "max_length", None) or 150))
