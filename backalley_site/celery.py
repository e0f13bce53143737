"""The Celery application: configuration comes from Django settings (CELERY_* keys)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")

app = Celery("backalley_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
