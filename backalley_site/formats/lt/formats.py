# Lithuanian: the month in the genitive before the day, as "gruodžio 2 d., 14:30".
SHORT_DATETIME_FORMAT = r"E j \d., H:i"
SHORT_DATE_FORMAT = r"Y \m. E j \d."
