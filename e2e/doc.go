// Package e2e drives the real switchboard binary in Debian's Chromium
// through playwright-go and checks what a person sees and what assistive
// technology gets (axe-core). The tests carry the e2e build tag and run
// with `make e2e`; `make test` installs Chromium and the npm packages first.
package e2e
