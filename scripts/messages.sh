#!/usr/bin/env bash
# Refresh the translation catalogs (locale/<lang>/LC_MESSAGES/django.po and djangojs.po)
# from the sources: new and changed strings come in untranslated, strings no longer used
# leave. Run from the project's root (make messages does); PYTHON names the interpreter.
# The catalog test (tests/backalley_site/test_catalogs.py) runs this in a copy of the
# tree and fails when it would change a catalog's messages.
set -euo pipefail
PYTHON=${PYTHON:-.venv/bin/python}
common=(-l lt -l sv -l gu --no-obsolete --add-location=file
        -i .venv -i var -i tests -i bench -i examples -i scripts -i docs -i test-output -i node_modules)
"$PYTHON" manage.py makemessages -d django "${common[@]}" --verbosity 0
"$PYTHON" manage.py makemessages -d djangojs "${common[@]}" -i static/js/vendor --verbosity 0
