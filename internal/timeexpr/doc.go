// Package timeexpr finds the time expressions of a text and resolves them
// against a reference time (when the text was said or observed) to
// intervals of calendar time: "last week" said on Friday 9 June 2023 is
// Monday 29 May – Sunday 4 June 2023.
//
// It is pure (no clock, no I/O): the same text and reference always give
// the same spans. Calendar days are those of the reference time's UTC date;
// weeks run Monday to Sunday (ISO 8601); seasons are the northern
// hemisphere's meteorological ones (summer = June–August).
//
// Resolved (case-insensitive, numbers as digits or words up to twenty):
//
//   - today, tonight, this morning/afternoon/evening; yesterday, last night,
//     tomorrow; the day before yesterday, the day after tomorrow
//   - N days/weeks/months/years ago, a week ago, a couple of days ago;
//     in N days/weeks/months/years, N days from now
//   - last/this/next week, weekend, month, year, summer (and the other
//     seasons), <weekday>, <month name>
//   - absolute dates: 7 May, May 7, 7th of May, May 7th 2023, 8 May, 2023,
//     May 2023, in May (the reference's year), in 2022
//   - anchored: the week/day/weekend/month/year/<weekday> before or after
//     <absolute date>, N days/weeks before or after <absolute date>
//
// Not resolved (left as text, never guessed): vague spans ("recently", "the
// other day", "a few days ago", "several weeks ago", "a while back"), a
// bare weekday ("on Saturday": past or coming?), times of day ("at 5pm"),
// numeric dates ("07/05/2023": day or month first?), two-digit years,
// holidays ("at Christmas"), durations ("for two weeks"), and expressions
// anchored on events ("the week after the concert").
//
// "last Friday" is the Friday strictly before the reference day, "next
// Friday" the one strictly after it and "this Friday" the one of the
// reference's week; "last May" is the latest May that ended before the
// reference's month, and a day of a month without a year ("May 7") is in
// the reference's year.
package timeexpr
