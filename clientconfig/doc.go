// Package clientconfig edits AI clients' own config files (Cursor's
// mcp.json, Claude Code's ~/.claude.json, …): it reads the servers they
// list, writes Switchboard's entry with a timestamped backup beside the
// file, moves chosen servers into Switchboard's settings file, and undoes
// all of that. The CLI (`switchboard connect`) and the Connect page share
// it, so both behave the same.
package clientconfig
