"""Django's own words that the site's pages show, carried by the site's catalogs too.

Django's catalogs lack some of them in our languages (most in Gujarati, a few in
Lithuanian), and the site's catalogs (``LOCALE_PATHS``) are looked up before Django's: the
strings below are marked here, exactly as Django writes them, only so that ``make
messages`` keeps them in our catalogs, translated to the glossary like the rest. Nothing
imports this module.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

# The sign-up and login forms (django.contrib.auth), their help and their errors.
WORDS = (
    gettext_noop("username"),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("This account is inactive."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and "
        "@/./+/-/_ characters."
    ),
    gettext_noop("A user with that username already exists."),
    gettext_noop("This field is required."),
)

PLURALS = (
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        1,
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        1,
    ),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        1,
    ),
)
