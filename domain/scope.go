package domain

// Scope names whose servers these are. Every stored record and every query
// carries both parts so that multi-user workspaces need no migration later.
type Scope struct {
	User      string
	Workspace string
}

// LocalUser is the user every request acts as until accounts exist.
const LocalUser = "local"
