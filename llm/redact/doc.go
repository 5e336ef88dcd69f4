// Package redact owns cmem's rule-based redaction: the deterministic rules
// that write and read policies, the offline LLM provider and the OpenAI
// provider's safety net apply to text before it is stored or surfaced.
//
// Apply replaces e-mail addresses, phone numbers, payment card numbers
// (Luhn-checked), IBAN-like account numbers and the names of registered
// users with placeholders ([EMAIL], [PHONE], [CARD], [IBAN], [USER]) and
// reports what it found. Block decides whether a text must not be written
// at all. Rules are tuned to err towards redaction where a real identifier
// could leak, but never to touch dates, times, versions, IP addresses or
// ordinary short numbers.
package redact
