# The site's own date formats in English (Django's for everything not named here).
SHORT_DATETIME_FORMAT = "D j M, H:i"
SHORT_DATE_FORMAT = "j M Y"
