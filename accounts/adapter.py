"""The site's allauth adapter and sign-up form: login limits per account and
a sign-up that does not tell whether an address is registered."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import SignupForm
from allauth.account.utils import filter_users_by_email, filter_users_by_username
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest


def account_for_login(login: str) -> AbstractBaseUser | None:
    """The account a login name designates: by username, else by e-mail
    address (addresses are unique). None for an unknown name."""
    login = login.strip()
    if not login:
        return None
    by_name = list(filter_users_by_username(login)[:2])
    if len(by_name) == 1:
        return by_name[0]
    if "@" in login:
        by_email = filter_users_by_email(login)
        if len(by_email) == 1:
            return by_email[0]
    return None


class AccountAdapter(DefaultAccountAdapter):
    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """The key of the failed-login lock (``login_failed`` ".../key"): the
        account, not the name typed. allauth keys it by the login text, so five
        failures as "victim" did not stop the right password as
        "victim@example.com". allauth uses this one key both to count failures
        and to clear them after a password reset, so the two stay together."""
        login = str(credentials.get("email") or credentials.get("username") or "")
        account = account_for_login(login)
        if account is None:
            return super()._get_login_attempts_cache_key(request, **credentials)
        return f"{get_current_site(request).domain}:account:{account.pk}"


class QuietSignupForm(SignupForm):
    """Sign-up that answers the same whether the address is registered or not.

    A new address: the account is created with it, as usual. An address
    that already has an account: the new account is created *without* an
    address, and the address's owner gets a mail saying someone tried to sign
    up with it (allauth's "account already exists" mail). Either way the
    visitor sees the same answer (signed up and logged in), so the form tells
    nothing about who is a member; addresses stay unique."""

    taken_email = ""

    def validate_unique_email(self, value: str) -> str:
        if filter_users_by_email(value):
            self.taken_email = value
            return value
        return super().validate_unique_email(value)

    def save(self, request: HttpRequest) -> AbstractBaseUser:
        if self.taken_email:
            self.cleaned_data["email"] = ""
        user = super().save(request)
        if self.taken_email:
            self._tell_the_owner(request)
        return user

    def _tell_the_owner(self, request: HttpRequest) -> None:
        from django.urls import reverse

        adapter = AccountAdapter(request)
        adapter.send_mail(
            "account/email/account_already_exists",
            self.taken_email,
            {
                "request": request,
                "email": self.taken_email,
                "password_reset_url": request.build_absolute_uri(reverse("account_reset_password")),
                "signup_url": request.build_absolute_uri(reverse("account_signup")),
            },
        )
