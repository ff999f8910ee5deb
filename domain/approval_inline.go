package domain

import (
	"path/filepath"
	"strings"
)

// inlineRule says how an interpreter takes its program as an argument:
// short option letters (which may be grouped, as in sh -lc or perl -ne),
// long options (--eval, --eval=CODE) and a subcommand (deno eval).
type inlineRule struct {
	short string
	long  []string
	sub   string
}

var (
	shellRule = inlineRule{short: "c"}
	nodeRule  = inlineRule{short: "ep", long: []string{"--eval", "--print"}}
)

// inlineRules maps an interpreter's base name, without version suffix or
// .exe, to how it runs code given on its command line.
var inlineRules = map[string]inlineRule{
	"sh": shellRule, "bash": shellRule, "zsh": shellRule, "dash": shellRule, "ksh": shellRule,
	"mksh": shellRule, "ash": shellRule, "csh": shellRule, "tcsh": shellRule,
	"fish":   {short: "c", long: []string{"--command"}},
	"python": {short: "c"}, "pypy": {short: "c"},
	"node": nodeRule, "nodejs": nodeRule, "bun": nodeRule,
	"deno": {sub: "eval"},
	"perl": {short: "eE"}, "ruby": {short: "e"}, "php": {short: "r"},
	"lua": {short: "e"}, "luajit": {short: "e"}, "osascript": {short: "e"},
	"npx": {short: "c", long: []string{"--call"}},
	"su":  {short: "c", long: []string{"--command"}},
}

// InlineCode reports whether command runs a program given in args (sh -c,
// python -c, node -e, perl -e, pwsh -Command, cmd /c), also behind the
// wrappers wrapperRules knows (env, timeout, nice, sudo...), naming the
// interpreter and the index of the argument holding the code.
func InlineCode(command string, args []string) (program string, index int, ok bool) {
	scan := scanCommand(command, args)
	if scan.inline == nil {
		return "", 0, false
	}
	return scan.inline.prog, scan.inline.at, true
}

// maxWrappers bounds how many wrappers scanCommand follows: a command line
// nesting more is flagged rather than followed to its end.
const maxWrappers = 32

// hop is a program found on a command line and the argument naming it
// (-1 for the command itself).
type hop struct {
	prog string
	at   int
}

// commandScan is what scanCommand finds: the interpreter running inline
// code, if any, and the wrappers that run the rest as another user.
type commandScan struct {
	inline     *hop
	escalating []hop
}

// scanCommand follows command through its wrappers to the program they
// run and looks there for inline code. An env -S command line that cannot
// be split, and more wrappers than maxWrappers, count as inline code of
// the wrapper: what runs cannot be told, so it is flagged.
func scanCommand(command string, args []string) commandScan {
	var scan commandScan
	words := make([]word, len(args))
	for i, a := range args {
		words[i] = word{s: a, at: i}
	}
	cur := word{s: command, at: -1}
	for range maxWrappers {
		prog := programName(cur.s)
		rule, wrapper := wrapperRules[prog]
		if !wrapper {
			if prog == "su" {
				scan.escalating = append(scan.escalating, hop{prog: prog, at: cur.at})
			}
			texts := make([]string, len(words))
			for i, w := range words {
				texts[i] = w.s
			}
			if i, found := inlineIndex(prog, texts); found {
				scan.inline = &hop{prog: prog, at: words[i].at}
			}
			return scan
		}
		if rule.escalates {
			scan.escalating = append(scan.escalating, hop{prog: prog, at: cur.at})
		}
		next, rest, found, holder, err := rule.unwrap(words)
		if err != nil {
			scan.inline = &hop{prog: prog, at: holder}
			return scan
		}
		if !found {
			return scan
		}
		cur, words = next, rest
	}
	scan.inline = &hop{prog: programName(cur.s), at: max(cur.at, 0)}
	return scan
}

// programName is the interpreter a command names: its base name in lower
// case without .exe or a version suffix (python3.12 -> python).
func programName(command string) string {
	base := strings.ToLower(filepath.Base(strings.ReplaceAll(command, `\`, "/")))
	base = strings.TrimSuffix(base, ".exe")
	trimmed := strings.TrimRight(base, "0123456789.")
	if trimmed == "" {
		return base
	}
	return trimmed
}

// inlineIndex finds the argument holding inline code for prog.
func inlineIndex(prog string, args []string) (int, bool) {
	switch prog {
	case "pwsh", "powershell":
		return optionIndex(args, func(a string) (bool, bool) {
			name := strings.ToLower(strings.TrimLeft(a, "-/"))
			if name == "" || name == a {
				return false, false
			}
			return name == "ec" || name == "cwa" || strings.HasPrefix("command", name) ||
				strings.HasPrefix("encodedcommand", name) || strings.HasPrefix("commandwithargs", name), false
		})
	case "npm":
		// npm exec -c CODE (or npm x) runs CODE in a shell, as npx -c does.
		for i, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if a != "exec" && a != "x" {
				return 0, false
			}
			j, found := inlineIndex("npx", args[i+1:])
			return i + 1 + j, found
		}
		return 0, false
	case "cmd":
		return optionIndex(args, func(a string) (bool, bool) {
			l := strings.ToLower(a)
			if l == "/c" || l == "/k" {
				return true, false
			}
			return strings.HasPrefix(l, "/c") || strings.HasPrefix(l, "/k"), true
		})
	}
	rule, ok := inlineRules[prog]
	if !ok {
		return 0, false
	}
	if rule.sub != "" {
		for i, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if a == rule.sub {
				return min(i+1, len(args)-1), true
			}
			return 0, false
		}
		return 0, false
	}
	return optionIndex(args, func(a string) (bool, bool) {
		for _, l := range rule.long {
			if a == l {
				return true, false
			}
			if strings.HasPrefix(a, l+"=") {
				return true, true
			}
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			return false, false
		}
		group := a[1:]
		if !isLetters(group) {
			// -cCODE: the code is attached to its option.
			return strings.ContainsRune(rule.short, rune(group[0])), true
		}
		return strings.ContainsAny(group, rule.short), false
	})
}

// optionIndex returns the index of the code an option found by match
// introduces: the option itself when the code is attached to it, else the
// argument after it. Nothing after "--" is an option.
func optionIndex(args []string, match func(a string) (found, attached bool)) (int, bool) {
	for i, a := range args {
		if a == "--" {
			return 0, false
		}
		found, attached := match(a)
		if !found {
			continue
		}
		if attached || i+1 == len(args) {
			return i, true
		}
		return i + 1, true
	}
	return 0, false
}

func isLetters(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}
