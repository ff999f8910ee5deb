package locales

import "sync"

// memoLimit bounds how many texts one language remembers. The ids are a
// fixed set, but counts are not: past the limit texts are still right,
// only no longer remembered.
const memoLimit = 4096

// memoValueLimit is the longest text value whose message is remembered:
// names and formatted numbers, not error messages.
const memoValueLimit = 64

// memo remembers the finished texts of one language whose words depend on
// the message id and at most one short value: the labels, counts and
// names the dashboard repeats on every server row ("Details", "12
// tools", "Open details of github"). go-i18n matches the language and
// runs a text/template on every call, which made translating most of the
// cost of rendering a page of 200 servers. Texts with more data, or a
// long value, are translated every time; memoLimit bounds the rest, so a
// long-lived event stream cannot grow it without end.
type memo struct {
	mu    sync.RWMutex       // guards plain and texts
	plain map[string]string  // message id -> text, for messages without data
	texts map[memoKey]string // for messages with one value
}

// memoKey is a message id with the one data entry that filled it, if any.
type memoKey struct {
	id   string
	name string // the data entry's name; empty for a message without data
	num  int64  // its value when a whole number
	str  string // its value when text
	text bool   // whether the value is text
}

// memoKeyOf returns the key data's text is remembered under, and reports
// whether the text depends only on that key: data is nil, or holds one
// entry that is a whole number or a short text.
func memoKeyOf(id string, data map[string]any) (memoKey, bool) {
	if data == nil {
		return memoKey{id: id}, true
	}
	if len(data) != 1 {
		return memoKey{}, false
	}
	for name, v := range data {
		if name == "" {
			break // never a template's name; it would pass for no data
		}
		switch v := v.(type) {
		case int:
			return memoKey{id: id, name: name, num: int64(v)}, true
		case int64:
			return memoKey{id: id, name: name, num: v}, true
		case string:
			if len(v) <= memoValueLimit {
				return memoKey{id: id, name: name, str: v, text: true}, true
			}
		}
	}
	return memoKey{}, false
}

// lookup returns the remembered text for k, if there is one. Messages
// without data, the most common, are found by id alone, which hashes
// faster than the whole memoKey. The maps are typed, not sync.Maps, so a
// lookup boxes nothing.
func (m *memo) lookup(k memoKey) (string, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if k.name == "" {
		s, ok := m.plain[k.id]
		return s, ok
	}
	s, ok := m.texts[k]
	return s, ok
}

// remember keeps s as k's text while the memo is under its limit.
func (m *memo) remember(k memoKey, s string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.plain)+len(m.texts) >= memoLimit {
		return
	}
	if k.name == "" {
		if m.plain == nil {
			m.plain = map[string]string{}
		}
		m.plain[k.id] = s
		return
	}
	if m.texts == nil {
		m.texts = map[memoKey]string{}
	}
	m.texts[k] = s
}
