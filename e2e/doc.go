// Package e2e drives the real switchboard binary in Debian's Chromium
// through playwright-go and checks what a person sees and what assistive
// technology gets (axe-core). Every test starts its own switchboard on
// port 0 with a temporary data directory and a settings file of real
// servers (the binary's demo-server, server-everything, failing commands,
// an untrusted TLS endpoint, a gate that holds a connect open), and waits
// on the page (playwright's own waiting) or on /api/v1/events, never on a
// clock. Tests touch the page only through the selectors of
// docs/dashboard-contract.md.
//
// The tests carry the e2e build tag and run with `make e2e`; `make test`
// installs Chromium and the npm packages first. Under CI=true a missing
// browser or driver fails the suite instead of skipping it.
// SWITCHBOARD_E2E_BINARY runs the suite against a binary built elsewhere.
//
// Files: main_test.go (driver and browser, once), instance_test.go,
// events_test.go, api_test.go (the process, its event stream and API),
// peers_test.go (the servers it supervises), page_test.go and axe_test.go
// (page helpers), and one file per feature: states, drawer, keyboard,
// a11y, latency, tls, locale, preferences, remove, dashboard.
package e2e
