package sqlite

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// journalSuffix ends the name of a journal segment:
// running/<owner>.<n>.journal.
const journalSuffix = ".journal"

// segmentLimit is the size past which appends move on to a new segment, so
// that a segment whose entries are all committed can be deleted even while
// calls keep coming.
const segmentLimit = 1 << 20

// journal lets a call's final state and audit row be durable before they
// are committed: one append to a file of this process's own, a single
// write the kernel keeps however the process ends, where a commit costs a
// transaction over a dozen pages. The writer commits the entry later with
// others (group commit), and the segment holding it goes once all its
// entries are committed. A journal left by a process that stopped is
// committed by the next Open or recovery (replayJournals) before its calls
// are looked at. It is as durable as a commit with synchronous=NORMAL: a
// process crash loses nothing, a power cut may lose the last entries.
type journal struct {
	dir   string // the running/ directory
	owner string

	mu     sync.Mutex // guards cur, next and closed
	cur    *segment   // where appends go; nil until the first
	next   int        // number of the next segment
	closed bool
}

// segment is one journal file and how many of its entries wait for their
// commit.
type segment struct {
	path    string
	f       *os.File
	size    int64
	pending int // guarded by journal.mu
}

// journalEntry is one line of a segment: an invocation's final state and
// its audit row, as upsertInvocation's and insertAuditRow's arguments.
type journalEntry struct {
	User      string            `json:"u"`
	Workspace string            `json:"w"`
	ID        string            `json:"id"`
	Version   int64             `json:"v"`
	Inv       []json.RawMessage `json:"inv"`
	Audit     []json.RawMessage `json:"audit"`
}

func newJournal(dir, owner string) *journal { return &journal{dir: dir, owner: owner} }

// append writes one entry in a single write and returns the segment that
// holds it, for release once it is committed.
func (j *journal) append(user, workspace, id string, version int64, inv, audit []any) (*segment, error) {
	line, err := encodeEntry(user, workspace, id, version, inv, audit)
	if err != nil {
		return nil, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil, errWriterClosed
	}
	if j.cur == nil || j.cur.size >= segmentLimit {
		if err := j.roll(); err != nil {
			return nil, err
		}
	}
	s := j.cur
	if _, err := s.f.Write(line); err != nil {
		// A short write leaves a torn line, which replay skips; the
		// caller falls back to waiting for the commit.
		s.size = segmentLimit
		return nil, fmt.Errorf("journal: %w", err)
	}
	s.size += int64(len(line))
	s.pending++
	return s, nil
}

// roll starts a new segment and deletes the current one when nothing in
// it waits any more. j.mu must be held.
func (j *journal) roll() error {
	path := filepath.Join(j.dir, j.owner+"."+strconv.Itoa(j.next)+journalSuffix)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.next++
	old := j.cur
	j.cur = &segment{path: path, f: f}
	if old != nil && old.pending == 0 {
		return old.remove()
	}
	return nil
}

// release marks one entry of s committed. A segment with nothing left
// waiting is emptied when appends still go to it, else deleted.
func (j *journal) release(s *segment) {
	j.mu.Lock()
	defer j.mu.Unlock()
	s.pending--
	if s.pending > 0 {
		return
	}
	if s != j.cur {
		_ = s.remove() // a segment left behind is replayed harmlessly
		return
	}
	if s.f.Truncate(0) == nil {
		s.size = 0
	}
}

// close deletes the segments whose entries are all committed; one with
// entries the writer could not commit stays, for the next Open to replay.
// The writer must have been closed first.
func (j *journal) close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closed = true
	if j.cur == nil {
		return nil
	}
	s := j.cur
	j.cur = nil
	if s.pending > 0 {
		return s.f.Close()
	}
	return s.remove()
}

func (s *segment) remove() error {
	err := s.f.Close()
	if rerr := os.Remove(s.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// journalOwner returns the owner of the segment named name, and whether
// name is a segment's at all.
func journalOwner(name string) (string, bool) {
	base, ok := strings.CutSuffix(name, journalSuffix)
	if !ok {
		return "", false
	}
	owner, n, ok := strings.Cut(base, ".")
	if !ok || !validOwner(owner) {
		return "", false
	}
	if _, err := strconv.Atoi(n); err != nil {
		return "", false
	}
	return owner, true
}

// encodeEntry is the line of a journalEntry, newline included, written
// straight into one buffer: it is on the path of every call's answer, and
// encoding the arguments one by one and then the entry around them would
// copy and check every byte twice.
func encodeEntry(user, workspace, id string, version int64, inv, audit []any) ([]byte, error) {
	size := 64 + len(user) + len(workspace) + len(id)
	for _, a := range inv {
		size += argSize(a)
	}
	for _, a := range audit {
		size += argSize(a)
	}
	b := make([]byte, 0, size)
	b = append(b, `{"u":`...)
	b = appendJSONString(b, user)
	b = append(b, `,"w":`...)
	b = appendJSONString(b, workspace)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, id)
	b = append(b, `,"v":`...)
	b = strconv.AppendInt(b, version, 10)
	var err error
	b = append(b, `,"inv":`...)
	if b, err = appendArgs(b, inv); err != nil {
		return nil, err
	}
	b = append(b, `,"audit":`...)
	if b, err = appendArgs(b, audit); err != nil {
		return nil, err
	}
	return append(b, '}', '\n'), nil
}

// argSize is about how many bytes appendArg writes for a, to size the
// buffer once.
func argSize(a any) int {
	switch a := a.(type) {
	case string:
		return len(a) + 8
	case []byte:
		return base64.StdEncoding.EncodedLen(len(a)) + 12
	}
	return 24
}

// appendArgs appends args as a JSON array of appendArg's encodings.
func appendArgs(b []byte, args []any) ([]byte, error) {
	b = append(b, '[')
	for i, a := range args {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendArg(b, i, a); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendArg encodes statement argument i so that decodeArgs gives back
// the same SQL type: text, integers, booleans, NULL and blobs (as an
// object holding base64, since JSON has no bytes).
func appendArg(b []byte, i int, a any) ([]byte, error) {
	switch a := a.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, a), nil
	case bool:
		return strconv.AppendBool(b, a), nil
	case int64:
		return strconv.AppendInt(b, a, 10), nil
	case []byte:
		b = append(b, `{"b":"`...)
		b = base64.StdEncoding.AppendEncode(b, a)
		return append(b, '"', '}'), nil
	}
	return nil, fmt.Errorf("journal: argument %d: unexpected type %T", i, a)
}

// appendJSONString appends s as a JSON string. Printable ASCII without
// quotes or backslashes, nearly every identifier and status, is copied as
// it is; anything else is left to encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// encodeArgs encodes each of args as appendArg does.
func encodeArgs(args []any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(args))
	for i, a := range args {
		b, err := appendArg(nil, i, a)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// decodeArgs is encodeArgs undone.
func decodeArgs(raw []json.RawMessage) ([]any, error) {
	out := make([]any, len(raw))
	for i, r := range raw {
		s := string(r)
		switch {
		case s == "null":
			out[i] = nil
		case s == "true" || s == "false":
			out[i] = s == "true"
		case strings.HasPrefix(s, `"`):
			var v string
			if err := json.Unmarshal(r, &v); err != nil {
				return nil, err
			}
			out[i] = v
		case strings.HasPrefix(s, "{"):
			var v struct {
				B string `json:"b"`
			}
			if err := json.Unmarshal(r, &v); err != nil {
				return nil, err
			}
			b, err := base64.StdEncoding.DecodeString(v.B)
			if err != nil {
				return nil, err
			}
			out[i] = b
		default:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("argument %d: %w", i, err)
			}
			out[i] = n
		}
	}
	return out, nil
}
