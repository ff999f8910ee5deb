// Package domaintest holds fakes of the interfaces domain consumes: a
// clock that only moves when a test says so, and a connector whose every
// attempt, probe and notification the test scripts. They exist so that
// timing rules can be tested exactly and without sleeps.
package domaintest
