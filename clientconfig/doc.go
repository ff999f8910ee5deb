// Package clientconfig edits AI clients' own config files (Cursor's
// mcp.json, Claude Code's ~/.claude.json, …): it reads the servers they
// list, writes Switchboard's entry with a timestamped backup beside the
// file, moves chosen servers into Switchboard's settings file, and undoes
// all of that. The CLI (`switchboard connect`) and the Connect page share
// it, so both behave the same.
package clientconfig

// MaxClientFileSize bounds a client's config file and its backups. They
// are read whole, so they need a bound, but a higher one than Switchboard's
// own settings: Claude Code keeps its MCP servers in ~/.claude.json beside
// per-project history, and that file grows to tens of megabytes for people
// who use it every day.
const MaxClientFileSize = 64 << 20
