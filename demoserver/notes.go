package demoserver

import (
	"slices"
	"sync"
)

// noteStore is the mutable state behind demo://notes/{id} and delete_note,
// which gives the destructive tool something real to destroy.
type noteStore struct {
	mu    sync.Mutex // guards notes
	notes map[string]string
}

// newNoteStore seeds the store with a few notes so the template resolves
// out of the box.
func newNoteStore() *noteStore {
	return &noteStore{notes: map[string]string{
		"welcome":  "# Welcome\n\nThis note is served by the `demo://notes/{id}` template.\n",
		"shopping": "# Shopping\n\n- milk\n- coffee\n- batteries\n",
		"todo":     "# To do\n\n1. Restart the flaky server\n2. Read its stderr\n",
	}}
}

// get returns the note with id and reports whether it exists.
func (n *noteStore) get(id string) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	text, ok := n.notes[id]
	return text, ok
}

// delete removes the note with id and reports whether it existed.
func (n *noteStore) delete(id string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	_, ok := n.notes[id]
	delete(n.notes, id)
	return ok
}

// ids lists the note ids in sorted order.
func (n *noteStore) ids() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	ids := make([]string, 0, len(n.notes))
	for id := range n.notes {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
