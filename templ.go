// Package switchboard is the root of the Switchboard module: a single
// binary that runs, supervises and shows the MCP servers an AI client uses.
// The program lives in cmd/switchboard; this file only carries the
// generate line that turns views/*.templ into committed Go code.
package switchboard

//go:generate go tool templ generate
