package domain

import (
	"errors"
	"strings"
)

// wrapperRule says how a program that runs another one (env, timeout,
// sudo...) finds it among its arguments: options that take a value
// (written apart, as in -u X, or attached, as in -uX and --unset=X),
// operands that come before the program (timeout's DURATION) and NAME=VALUE
// assignments. Without it a value such as env -u X's X would be taken for
// the program, and the sh -c after it would go unflagged.
type wrapperRule struct {
	takes       string   // short options that take a value
	takesLong   []string // long options that take a value
	split       string   // a short option whose value is a command line (env -S)
	splitLong   string   // its long form
	operands    int      // operands before the program
	assignments bool     // NAME=VALUE words may come before the program
	escalates   bool     // the program runs as another user, root by default
}

// wrapperRules maps a wrapper's program name to its rule. Options a
// wrapper takes without a value need no entry: any other -x is skipped.
var wrapperRules = map[string]wrapperRule{
	"env": {takes: "uCP", takesLong: []string{"--unset", "--chdir"}, split: "S", splitLong: "--split-string",
		assignments: true},
	"timeout": {takes: "sk", takesLong: []string{"--signal", "--kill-after"}, operands: 1},
	"nice":    {takes: "n", takesLong: []string{"--adjustment"}},
	"ionice":  {takes: "cnpPu", takesLong: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}},
	"stdbuf":  {takes: "ioe", takesLong: []string{"--input", "--output", "--error"}},
	"setsid":  {},
	"nohup":   {},
	"exec":    {takes: "a"},
	"busybox": {},
	"sudo": {takes: "ugCDhpRrtTU", takesLong: []string{"--user", "--group", "--close-from", "--chdir", "--host",
		"--prompt", "--chroot", "--role", "--type", "--command-timeout", "--other-user"}, assignments: true, escalates: true},
	"doas":   {takes: "uC", escalates: true},
	"pkexec": {takesLong: []string{"--user"}, escalates: true},
}

// word is one argument as a wrapper sees it, with the index in the
// entry's args it comes from (-1 for the command): words split out of
// env -S all come from the argument holding the command line.
type word struct {
	s  string
	at int
}

// errNoSplit marks an env -S command line that could not be split.
var errNoSplit = errors.New("unbalanced quote or trailing backslash")

// unwrap finds the program a wrapper runs and the words after it. A -S
// command line is split and parsed in place, as env does. found is false
// when the wrapper runs nothing (env alone prints the environment);
// err is set when a command line cannot be split, holder being where.
func (r wrapperRule) unwrap(words []word) (prog word, rest []word, found bool, holder int, err error) {
	operands := 0
	for i := 0; i < len(words); i++ {
		a := words[i].s
		if a == "--" {
			i++
			if i < len(words) {
				return words[i], words[i+1:], true, 0, nil
			}
			return word{}, nil, false, 0, nil
		}
		if strings.HasPrefix(a, "--") {
			name, value, attached := strings.Cut(a, "=")
			switch {
			case r.splitLong != "" && abbreviates(name, r.splitLong):
				if words, holder, err = splitInto(words, i, value, attached); err != nil {
					return word{}, nil, false, holder, err
				}
				i--
			case !attached && abbreviatesAny(name, r.takesLong):
				i++
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			if j := strings.IndexFunc(a[1:], func(c rune) bool { return strings.ContainsRune(r.takes+r.split, c) }); j >= 0 {
				c, value := a[1+j], a[2+j:]
				if strings.IndexByte(r.split, c) >= 0 {
					if words, holder, err = splitInto(words, i, value, value != ""); err != nil {
						return word{}, nil, false, holder, err
					}
					i--
				} else if value == "" {
					i++ // the value is the next argument
				}
			}
			continue
		}
		if r.assignments && strings.Contains(a, "=") {
			continue
		}
		if operands < r.operands {
			operands++
			continue
		}
		return words[i], words[i+1:], true, 0, nil
	}
	return word{}, nil, false, 0, nil
}

// splitInto replaces words[i] (and the next word when the command line is
// not attached) with the words of the command line, each remembering the
// argument it came from. On error, holder is that argument's index.
func splitInto(words []word, i int, value string, attached bool) (out []word, holder int, err error) {
	from, end := words[i], i+1
	if !attached {
		if i+1 >= len(words) {
			return words[:i], 0, nil // env -S with nothing after it runs nothing
		}
		from, value, end = words[i+1], words[i+1].s, i+2
	}
	parts, err := splitCommandLine(value)
	if err != nil {
		return words, from.at, err
	}
	out = append(out, words[:i]...)
	for _, p := range parts {
		out = append(out, word{s: p, at: from.at})
	}
	return append(out, words[end:]...), 0, nil
}

// splitCommandLine splits s into words the way env -S does, near enough
// to find the program: blanks separate, single quotes keep everything,
// double quotes and backslashes escape, and \_ is a blank inside a word.
func splitCommandLine(s string) ([]string, error) {
	var out []string
	var b strings.Builder
	inWord, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errNoSplit
			}
			i++
			if s[i] == '_' {
				b.WriteByte(' ')
			} else {
				b.WriteByte(s[i])
			}
			inWord = true
		case quote == '"':
			if c == '"' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errNoSplit
	}
	if inWord {
		out = append(out, b.String())
	}
	return out, nil
}

// abbreviates reports whether name is long, or an abbreviation of it
// that getopt accepts (--un for --unset): at least one letter after "--".
func abbreviates(name, long string) bool {
	return len(name) > 2 && strings.HasPrefix(long, name)
}

func abbreviatesAny(name string, longs []string) bool {
	for _, l := range longs {
		if abbreviates(name, l) {
			return true
		}
	}
	return false
}
