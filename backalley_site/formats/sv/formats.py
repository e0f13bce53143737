# Swedish: "ons 2 december 14:30".
SHORT_DATETIME_FORMAT = "D j F H:i"
SHORT_DATE_FORMAT = "j F Y"
