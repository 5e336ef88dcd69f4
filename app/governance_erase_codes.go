package app

import "regexp"

// A short code of digits — a keypad or alarm code, a PIN — is a value a
// deletion request names ("please forget the old door code 4417"), though
// erasureTargets keeps numbers of four digits or fewer out (years, counts
// and days would erase half a scope). It is a target only when a code
// word introduces it within three words, so "the old gate code 4417 set
// in 2024" erases 4417 and not the year.

// codeNumberRE is a code word, up to three words, and the number it names.
var codeNumberRE = regexp.MustCompile(`(?i)\b(codes?|pins?|passcodes?|passwords?|combination)\b(?:\s+(?:is|was|of|to|number|no\.?|#|:|[a-z]+)){0,3}?\s*[:#]?\s*(\d{3,8})\b`)

// codeNumbers are the short codes sentence names.
func codeNumbers(sentence string) []string {
	var out []string
	for _, m := range codeNumberRE.FindAllStringSubmatch(sentence, -1) {
		out = append(out, m[2])
	}
	return out
}
