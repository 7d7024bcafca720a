package pipeline

// stringLiterals returns the contents of a script's string literals ('…',
// "…", `…`), escapes decoded as far as a carried value needs (\n, \t, \\,
// quotes; \uXXXX and \xXX), so text the model wrote into a script is
// checked as text. Comments are skipped; a regex literal is not told from
// division, which at worst checks a few more characters.
func stringLiterals(src string) []string {
	var out []string
	s := []rune(src)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i += 2
			for i+1 < len(s) && !(s[i] == '*' && s[i+1] == '/') {
				i++
			}
			i++
		case c == '\'' || c == '"' || c == '`':
			var b []rune
			i++
			for ; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
					switch s[i] {
					case 'n':
						b = append(b, '\n')
					case 't':
						b = append(b, '\t')
					case 'u', 'x':
						n := 4
						if s[i] == 'x' {
							n = 2
						}
						if v, ok := hexRune(s, i+1, n); ok {
							b = append(b, v)
							i += n
							continue
						}
						b = append(b, s[i])
					default:
						b = append(b, s[i])
					}
					continue
				}
				b = append(b, s[i])
			}
			if len(b) > 0 {
				out = append(out, string(b))
			}
		}
	}
	return out
}

func hexRune(s []rune, at, n int) (rune, bool) {
	if at+n > len(s) {
		return 0, false
	}
	var v rune
	for _, c := range s[at : at+n] {
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + c - '0'
		case c >= 'a' && c <= 'f':
			v = v*16 + c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = v*16 + c - 'A' + 10
		default:
			return 0, false
		}
	}
	return v, true
}
