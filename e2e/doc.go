// Package e2e tests the real switchboard binary from outside, as the
// people and programs that use it do: a person in Debian's Chromium
// (driven by playwright-go, checked by axe-core), AI clients on the MCP
// gateway (the official TypeScript SDK clients in gateway/ and parity/),
// scripts on the JSON API and its event stream, and the official MCP
// conformance runner (conformance/ is the client it starts).
//
// Every test starts its own switchboard on port 0 with a temporary data
// directory and a settings file of real servers: the binary's demo server,
// the npm reference servers and the servers people install (package.json
// pins them; `cd e2e && npm ci`), failing commands, an untrusted TLS
// endpoint, gates that hold a connect open. Tests wait on the page
// (playwright's own waiting) or on /api/v1/events, never on a clock, and
// touch the page only through the selectors of docs/dashboard-contract.md.
//
// The tests carry the e2e build tag and run with `make e2e`; `make test`
// installs Chromium and the npm packages first. Under CI=true a missing
// browser or driver fails the suite instead of skipping it.
// SWITCHBOARD_E2E_BINARY runs the suite against a binary built elsewhere.
//
// Shared helpers: main_test.go (build, driver and browser, once),
// instance_test.go, events_test.go and api_test.go (the process, its event
// stream and API), peers_test.go (the servers it supervises), page_test.go
// and axe_test.go (the page), inv_helpers_test.go (tool call cards),
// auth_helpers_test.go (sign-in). Every
// other file is one feature, named after it: states, drawer, keyboard,
// themes, invocations_*, approval_*, elicitation_*, gateway_*, parity_*,
// connect_*, signin and oauth_signin, and so on.
package e2e
