"""Human-written dates -> ISO 8601 (YYYY-MM-DD), for character-level models.

Every source string denotes exactly one date, by construction:
  * dates lie in 1950-01-01 .. 2049-12-31 and weekdays, when written, are correct;
  * a two-digit year YY means 19YY when YY >= 50 and 20YY when YY < 50 (pivot 50);
  * slashes are ALWAYS US order, month first: M/D/YY, MM/DD/YYYY, M/D/YYYY
    ("5/9/18" and "05/09/2018" are 9 May 2018);
  * dots with the year first are Y.M.D ("2018.05.09"); dots with the year last are
    European, day first: D.M.YYYY and DD.MM.YY ("9.5.2018", "09.05.18");
  * dashes: YYYY-MM-DD (already ISO) or DD-Mon-YY ("09-May-18");
  * eight digits are YYYYMMDD;
  * month and weekday names are English, full or abbreviated (sep and sept both
    September), written lower case, Title case or UPPER case.
"""

import datetime

from common import Pair

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
MON3 = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WD3 = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

FIRST = datetime.date(1950, 1, 1)
LAST = datetime.date(2049, 12, 31)


def ordinal(d):
    if 11 <= d % 100 <= 13:
        return "%dth" % d
    return "%d%s" % (d, {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th"))


# Each format: a name and a template.  Fields:
# {d} day, {dd} 2-digit day, {m} month, {mm} 2-digit month, {yyyy}, {yy},
# {month} full month name, {mon} 3-letter month, {wd} weekday, {wd3} 3-letter weekday,
# {dth} ordinal day (9th).
FORMATS = (
    ("wd d month yyyy", "{wd} {d} {month} {yyyy}"),            # saturday 9 may 2018
    ("m/d/yy", "{m}/{d}/{yy}"),                                # 5/9/18
    ("month dth, yyyy", "{month} {dth}, {yyyy}"),              # May 9th, 2018
    ("d month yyyy", "{d} {month} {yyyy}"),                    # 9 May 2018
    ("yyyy.mm.dd", "{yyyy}.{mm}.{dd}"),                        # 2018.05.09
    ("month d, yy", "{month} {d}, {yy}"),                      # may 9, 18
    ("mm/dd/yyyy", "{mm}/{dd}/{yyyy}"),                        # 05/09/2018
    ("wd3, d mon yyyy", "{wd3}, {d} {mon} {yyyy}"),            # Sat, 9 May 2018
    ("wd, month d, yyyy", "{wd}, {month} {d}, {yyyy}"),        # Saturday, May 9, 2018
    ("the dth of month yyyy", "the {dth} of {month} {yyyy}"),  # the 9th of may 2018
    ("d.m.yyyy", "{d}.{m}.{yyyy}"),                            # 9.5.2018
    ("yyyy-mm-dd", "{yyyy}-{mm}-{dd}"),                        # 2018-05-09
    ("dd-mon-yy", "{dd}-{mon}-{yy}"),                          # 09-May-18
    ("yyyymmdd", "{yyyy}{mm}{dd}"),                            # 20180509
    ("mon d yyyy", "{mon} {d} {yyyy}"),                        # May 9 2018
    ("d mon 'yy", "{d} {mon} '{yy}"),                          # 9 may '18
    ("wd3 mon d yyyy", "{wd3} {mon} {d} {yyyy}"),              # Sat May 9 2018
    ("m/d/yyyy", "{m}/{d}/{yyyy}"),                            # 5/9/2018
    ("dd.mm.yy", "{dd}.{mm}.{yy}"),                            # 09.05.18
    ("month dth yyyy", "{month} {dth} {yyyy}"),                # may 9th 2018
)


def render(date, template, case="lower", sept=False):
    mon = MON3[date.month - 1]
    if sept and date.month == 9:
        mon = "sept"
    fields = {
        "d": str(date.day), "dd": "%02d" % date.day, "m": str(date.month),
        "mm": "%02d" % date.month, "yyyy": "%04d" % date.year, "yy": "%02d" % (date.year % 100),
        "month": MONTHS[date.month - 1], "mon": mon, "wd": WEEKDAYS[date.weekday()],
        "wd3": WD3[date.weekday()], "dth": ordinal(date.day),
    }
    for k in ("month", "mon", "wd", "wd3"):
        if case == "title":
            fields[k] = fields[k].capitalize()
        elif case == "upper":
            fields[k] = fields[k].upper()
    s = template.format(**fields)
    if case == "title" and s.startswith("the "):
        s = "The " + s[4:]
    return s


def iso(date):
    return date.isoformat()


def random_date(rng):
    return FIRST + datetime.timedelta(days=rng.randrange((LAST - FIRST).days + 1))


def sample(rng):
    date = random_date(rng)
    _, template = FORMATS[rng.randrange(len(FORMATS))]
    r = rng.random()
    case = "lower" if r < 0.45 else ("title" if r < 0.9 else "upper")
    sept = rng.random() < 0.3
    return Pair([render(date, template, case, sept)], [iso(date)], None)


def seed_examples():
    d = datetime.date(2018, 5, 9)
    return [Pair([render(d, "{wd} {d} {month} {yyyy}")], [iso(d)], None)]
