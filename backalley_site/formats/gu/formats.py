# Gujarati: day/month/year in figures, 24-hour time ("2/12/2026, 14:30"); Django's own
# Gujarati catalog lacks many month and weekday names, so none are written out.
DATE_FORMAT = "j/n/Y"
DATETIME_FORMAT = "j/n/Y, H:i"
SHORT_DATETIME_FORMAT = "j/n/Y, H:i"
SHORT_DATE_FORMAT = "j/n/Y"
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = (3, 2, 0)  # Indian grouping: 1,00,000
FIRST_DAY_OF_WEEK = 1
