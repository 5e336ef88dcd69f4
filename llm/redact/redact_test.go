package redact_test

import (
	"errors"
	"regexp"
	"testing"

	"github.com/cmem/cmem/llm/redact"
)

func TestApply(t *testing.T) {
	all := redact.All("alice", "Bob Stone", "José", "user_1")
	tests := []struct {
		name string
		in   string
		r    redact.Rules
		want string
		kind map[redact.Kind]int
	}{
		{"email", "write to alice.smith+x@mail.example.co.uk today", redact.Rules{Emails: true},
			"write to [EMAIL] today", map[redact.Kind]int{redact.KindEmail: 1}},
		{"email before name", "alice@example.com is Alice", all,
			"[EMAIL] is [USER]", map[redact.Kind]int{redact.KindEmail: 1, redact.KindUser: 1}},
		{"visa spaced", "card 4111 1111 1111 1111 exp 12/25", redact.Rules{Cards: true},
			"card [CARD] exp 12/25", map[redact.Kind]int{redact.KindCard: 1}},
		{"card dashed", "pay with 5500-0000-0000-0004.", redact.Rules{Cards: true},
			"pay with [CARD].", map[redact.Kind]int{redact.KindCard: 1}},
		{"amex contiguous", "amex 378282246310005", redact.Rules{Cards: true},
			"amex [CARD]", map[redact.Kind]int{redact.KindCard: 1}},
		{"card window inside run", "order 12 4111 1111 1111 1111", redact.Rules{Cards: true},
			"order 12 [CARD]", map[redact.Kind]int{redact.KindCard: 1}},
		{"luhn fails", "ref 4111 1111 1111 1112", redact.Rules{Cards: true},
			"ref 4111 1111 1111 1112", nil},
		{"iban print", "IBAN DE89 3704 0044 0532 0130 00, thanks", redact.Rules{IBANs: true},
			"IBAN [IBAN], thanks", map[redact.Kind]int{redact.KindIBAN: 1}},
		{"iban electronic", "to GB82WEST12345698765432 now", all,
			"to [IBAN] now", map[redact.Kind]int{redact.KindIBAN: 1}},
		{"phone intl", "call +49 30 1234 5678 or +1 (555) 123-4567", redact.Rules{Phones: true},
			"call [PHONE] or [PHONE]", map[redact.Kind]int{redact.KindPhone: 2}},
		{"phone us", "office (555) 123-4567, cell 555-123-4567", redact.Rules{Phones: true},
			"office [PHONE], cell [PHONE]", map[redact.Kind]int{redact.KindPhone: 2}},
		{"phone local", "ring 555-1234.", redact.Rules{Phones: true},
			"ring [PHONE].", map[redact.Kind]int{redact.KindPhone: 1}},
		{"phone national bare", "Tel 03012345678", redact.Rules{Phones: true},
			"Tel [PHONE]", map[redact.Kind]int{redact.KindPhone: 1}},
		{"names whole word", "Alice met alicegate and BOB STONE; user_1 not user_10", all,
			"[USER] met alicegate and [USER]; [USER] not user_10", map[redact.Kind]int{redact.KindUser: 3}},
		{"unicode name", "Ask José, not Josée.", all,
			"Ask [USER], not Josée.", map[redact.Kind]int{redact.KindUser: 1}},
		{"placeholder is not a name", "mail bob@x.org", redact.All("email", "bob"),
			"mail [EMAIL]", map[redact.Kind]int{redact.KindEmail: 1}},
		{"disabled rules keep text", "alice@example.com +49 30 1234 5678", redact.Rules{},
			"alice@example.com +49 30 1234 5678", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, findings := redact.Apply(tc.in, tc.r)
			if got != tc.want {
				t.Fatalf("Apply(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			gotKinds := map[redact.Kind]int{}
			for _, f := range findings {
				gotKinds[f.Kind] = f.Count
			}
			if len(gotKinds) != len(tc.kind) {
				t.Fatalf("findings %v, want %v", findings, tc.kind)
			}
			for k, n := range tc.kind {
				if gotKinds[k] != n {
					t.Fatalf("findings %v, want %v", findings, tc.kind)
				}
			}
		})
	}
}

// Everything here must survive All() untouched: redaction that eats dates,
// versions or figures destroys the memory it is meant to protect.
func TestApplyLeavesOrdinaryText(t *testing.T) {
	keep := []string{
		"Released on 2024-01-15 and again on 15.01.2024 or 01/15/2024.",
		"Meet at 12:30:45, room 42, floor 7, 1234 attendees in 2023.",
		"go-openai v1.43.0 needs Go 1.26.8; Weaviate 1.35.2 too.",
		"Revenue grew from 1,234,567 to 2 500 000 EUR, a 12.5% rise.",
		"Between 1990-2024 the population was 7 900 000.",
		"Server 192.168.10.10 answered in 0.25 s.",
		"ISBN 978-3-16-148410-0 is a book.",
		"Pi is 3.14159265358979 and e is 2.718281828.",
		"Order number 1234567890 shipped.",
		"The unix time 1700000000 is in 2023.",
		"Model A4 has 16GB and a 4K screen.",
		"AB12 CDEF GHIJ KLMN is shouting, not an account.",
		"user emails and phones are not mentioned here",
		"On 2024-01-15 10:30 we met; on 15.01.2024 10:45 again.",
		"Patch CVE-2024-12345 and ticket #4711-2023 today.",
		"Build 20240115-1030 and PR/12345678 passed.",
	}
	for _, s := range keep {
		got, findings := redact.Apply(s, redact.All("nobody"))
		if got != s || len(findings) != 0 {
			t.Errorf("Apply changed ordinary text\n  in %q\n got %q (%v)", s, got, findings)
		}
	}
}

func TestApplyShortNamesIgnored(t *testing.T) {
	got, f := redact.Apply("a cat and a dog", redact.Rules{Names: []string{"a", " ", ""}})
	if got != "a cat and a dog" || len(f) != 0 {
		t.Fatalf("one-letter names must be ignored, got %q %v", got, f)
	}
}

func TestCount(t *testing.T) {
	_, f := redact.Apply("a@b.io c@d.io +44 20 7946 0958", redact.All())
	if n := redact.Count(f); n != 3 {
		t.Fatalf("Count = %d, want 3 (%v)", n, f)
	}
}

func TestBlock(t *testing.T) {
	pats, err := redact.CompileBlock([]string{`(?i)\bpassword\b`, `secret-\d+`})
	if err != nil {
		t.Fatal(err)
	}
	kw := redact.Keywords("Project Falcon", "  ")
	pats = append(pats, nil, kw)
	tests := []struct {
		in      string
		matched string
		ok      bool
	}{
		{"my Password is hunter2", "Password", true},
		{"token secret-42 leaked", "secret-42", true},
		{"notes on project falcon.", "project falcon", true},
		{"projects falconry", "", false},
		{"passwords are fine", "", false},
	}
	for _, tc := range tests {
		m, ok := redact.Block(tc.in, pats)
		if ok != tc.ok || m != tc.matched {
			t.Errorf("Block(%q) = %q,%v want %q,%v", tc.in, m, ok, tc.matched, tc.ok)
		}
	}
}

func TestCompileBlockReportsEveryBadPattern(t *testing.T) {
	_, err := redact.CompileBlock([]string{"ok", "(", "[z-a]"})
	if !errors.Is(err, redact.ErrPattern) {
		t.Fatalf("err = %v, want ErrPattern", err)
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) || len(joined.Unwrap()) != 2 {
		t.Fatalf("want two joined errors, got %v", err)
	}
}

func TestKeywordsEmpty(t *testing.T) {
	if redact.Keywords(" ", "") != nil {
		t.Fatal("Keywords of blanks must be nil")
	}
	if _, ok := redact.Block("anything", []*regexp.Regexp{redact.Keywords()}); ok {
		t.Fatal("nil pattern must not block")
	}
}

func TestApplyIdempotent(t *testing.T) {
	in := "alice@example.com, +49 30 1234 5678, 4111 1111 1111 1111, DE89 3704 0044 0532 0130 00, Alice"
	once, _ := redact.Apply(in, redact.All("alice"))
	twice, f := redact.Apply(once, redact.All("alice"))
	if once != twice || len(f) != 0 {
		t.Fatalf("second Apply changed %q to %q (%v)", once, twice, f)
	}
	want := []string{"[EMAIL]", "[PHONE]", "[CARD]", "[IBAN]", "[USER]"}
	for _, w := range want {
		if !regexp.MustCompile(regexp.QuoteMeta(w)).MatchString(once) {
			t.Errorf("%q lacks %s", once, w)
		}
	}
}
