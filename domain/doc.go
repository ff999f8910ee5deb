// Package domain is Switchboard's core: the settings model, the per-server
// state machine and supervisor, the status hub and the interfaces the
// adapters implement. It imports only the standard library so that every
// rule about connection state can be tested without a network, a database
// or a browser.
package domain
