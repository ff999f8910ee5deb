package domain

import (
	"fmt"
	"path/filepath"
	"strings"
)

// RiskKind names a setting that changes how a program runs or what it
// sends, beyond what its command line says.
type RiskKind string

const (
	// RiskLoaderEnv is an environment variable that makes a program load
	// other code or find other programs (NODE_OPTIONS, LD_PRELOAD, PATH...).
	RiskLoaderEnv RiskKind = "loader_env"
	// RiskInlineCode is an interpreter given its program as an argument
	// (sh -c, python -c, node -e...): that argument is the code that runs.
	RiskInlineCode RiskKind = "inline_code"
	// RiskCwdOutside is a working directory outside the project.
	RiskCwdOutside RiskKind = "cwd_outside_project"
	// RiskCwdRelative is a relative working directory with no project
	// directory to resolve it from, so where it leads is not known.
	RiskCwdRelative RiskKind = "cwd_relative"
	// RiskPrivilege is a program (sudo, doas, su, pkexec) that runs the
	// rest of the command line as another user, root unless told otherwise.
	RiskPrivilege RiskKind = "privilege"
	// RiskSendsEnv is a URL or header that reads an environment variable of
	// the person and sends its value to the server's host.
	RiskSendsEnv RiskKind = "sends_env"
)

// Risk is one flagged setting. Key is the env key or header name, Index
// the argument holding inline code (or naming a program that changes user),
// Program the interpreter running it (or that program), Variable and SentTo
// what a URL or header sends where. A risk about the command itself has
// Field FieldCommand.
type Risk struct {
	Kind     RiskKind
	Field    Field
	Key      string
	Index    int
	Program  string
	Variable string
	SentTo   string
}

// String says what the risk means, in English, for API clients and logs.
func (r Risk) String() string {
	switch r.Kind {
	case RiskLoaderEnv:
		return fmt.Sprintf("the environment variable %s changes how the program runs: it can make it load other code or find other programs", r.Key)
	case RiskInlineCode:
		return fmt.Sprintf("%s runs argument %d as a program", r.Program, r.Index+1)
	case RiskPrivilege:
		return fmt.Sprintf("%s runs the program as another user, root unless told otherwise", r.Program)
	case RiskCwdOutside:
		return "the working directory is outside the project"
	case RiskCwdRelative:
		return "the working directory is a relative path and there is no project directory to resolve it from"
	case RiskSendsEnv:
		if r.Field == FieldHeaders {
			return fmt.Sprintf("the header %s sends your environment variable %s to %s", r.Key, r.Variable, r.SentTo)
		}
		if r.Field == FieldOAuth {
			return fmt.Sprintf("the sign-in setting oauth.%s sends your environment variable %s to the authorization server of %s", r.Key, r.Variable, r.SentTo)
		}
		return fmt.Sprintf("the URL sends your environment variable %s to %s", r.Variable, r.SentTo)
	}
	return string(r.Kind)
}

// risksOf flags what in cfg changes how its program runs or sends a
// person's environment away. Programs and paths are judged as resolved
// (that is what runs), a working directory also through the symbolic links
// on its way; w is only used for the order env keys list in.
func risksOf(cfg ServerConfig, w RawConfig, projectRoot string, resolve PathResolver, refs []EnvRef) []Risk {
	var risks []Risk
	if cfg.Transport == TransportStdio {
		for _, k := range SortedKeys(w.Env) {
			if LoaderEnvKey(k) {
				risks = append(risks, Risk{Kind: RiskLoaderEnv, Field: FieldEnv, Key: k})
			}
		}
		scan := scanCommand(cfg.Command, cfg.Args)
		for _, h := range scan.escalating {
			if h.at < 0 {
				risks = append(risks, Risk{Kind: RiskPrivilege, Field: FieldCommand, Program: h.prog})
			} else {
				risks = append(risks, Risk{Kind: RiskPrivilege, Field: FieldArgs, Index: h.at, Program: h.prog})
			}
		}
		if scan.inline != nil {
			risks = append(risks, Risk{Kind: RiskInlineCode, Field: FieldArgs, Index: scan.inline.at, Program: scan.inline.prog})
		}
		// A relative cwd runs from the project's directory (see WorkDir),
		// so "../.." is judged by where it leads from there.
		switch cwd := resolveCwd(cfg.Cwd, projectRoot); {
		case cfg.Cwd == "":
		case !filepath.IsAbs(cwd):
			risks = append(risks, Risk{Kind: RiskCwdRelative, Field: FieldCwd})
		case projectRoot != "" && cwdOutside(projectRoot, cwd, resolve):
			risks = append(risks, Risk{Kind: RiskCwdOutside, Field: FieldCwd})
		}
	}
	for _, r := range refs {
		if r.SentTo != "" {
			risks = append(risks, Risk{Kind: RiskSendsEnv, Field: r.Field, Key: r.Key, Index: r.Index, Variable: r.Variable, SentTo: r.SentTo})
		}
	}
	return risks
}

// PathResolver returns where path leads on disk, its symbolic links
// followed. The domain reads no disk: the adapter that reads settings
// files supplies one (settingsfile.ResolvePath); nil judges paths only as
// written.
type PathResolver func(path string) string

// cwdOutside reports whether the working directory cwd lies outside the
// project at root, judged both as written and where it leads on disk: a
// cwd written inside the project can lead out of it through a symbolic
// link the project ships (project/escape -> /), and the process runs where
// the link leads. Both must lie inside, so a path written outside is
// flagged even when it leads back in.
func cwdOutside(root, cwd string, resolve PathResolver) bool {
	if resolve == nil {
		resolve = filepath.Clean
	}
	realRoot := resolve(root)
	written := within(root, cwd) || within(realRoot, cwd)
	return !written || !within(realRoot, resolve(cwd))
}

// within reports whether path is root or lies below it, judged on the
// cleaned paths.
func within(root, path string) bool {
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// loaderEnvKeys are variables that make a program load code, find other
// programs or read configuration that does: dynamic linkers, language
// runtimes' preload and search paths, shells' start-up files, and HOME and
// XDG_CONFIG_HOME (a project-supplied ~/.npmrc can set node-options).
var loaderEnvKeys = map[string]bool{
	"PATH": true, "HOME": true, "XDG_CONFIG_HOME": true,
	"NODE_OPTIONS": true, "NODE_PATH": true,
	"PERLLIB": true, "RUBYOPT": true, "RUBYLIB": true,
	"BASH_ENV": true, "ENV": true, "ZDOTDIR": true,
	"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "CLASSPATH": true,
	"DOTNET_STARTUP_HOOKS": true, "GCONV_PATH": true, "PHPRC": true, "PHP_INI_SCAN_DIR": true,
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EXEC_PATH": true, "GIT_ASKPASS": true,
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true, "GIT_CONFIG_PARAMETERS": true, "GIT_CONFIG_COUNT": true,
}

// loaderEnvPrefixes cover families: LD_PRELOAD and LD_LIBRARY_PATH,
// DYLD_INSERT_LIBRARIES, PYTHONPATH and PYTHONSTARTUP, PERL5LIB and
// PERL5OPT, npm's npm_config_* (script-shell, node-options), LUA_INIT.
var loaderEnvPrefixes = []string{"LD_", "DYLD_", "PYTHON", "PERL5", "NPM_CONFIG_", "LUA_INIT", "LUA_PATH", "LUA_CPATH"}

// LoaderEnvKey reports whether the environment variable key changes how a
// program runs rather than only what it reads as data. Keys are compared
// without case: npm reads npm_config_* in either, Windows ignores case.
func LoaderEnvKey(key string) bool {
	k := strings.ToUpper(key)
	if loaderEnvKeys[k] || strings.HasSuffix(k, "_PRELOAD") {
		return true
	}
	for _, p := range loaderEnvPrefixes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}
