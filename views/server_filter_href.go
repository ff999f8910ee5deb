package views

import "net/url"

// ServerFilterHrefKeeping is the page address that filters the server
// list to group ("" for every server) while keeping the rest of query,
// so choosing a state in the header never drops the call list's filters
// (server, status, source, from, to). The page's script does the same for
// summaries the event stream swaps in, which know no address.
func ServerFilterHrefKeeping(query url.Values, group string) string {
	q := url.Values{}
	for k, v := range query {
		if k != "state" {
			q[k] = append([]string(nil), v...)
		}
	}
	if group = NormalServerFilter(group); group != "" {
		q.Set("state", group)
	}
	return "?" + q.Encode()
}

// keepQuery points the summary's links and the list's "show all" at
// addresses that keep query's other parameters.
func keepQuery(p *PageProps, query url.Values) {
	for i := range p.Summary.Counts {
		p.Summary.Counts[i].Href = ServerFilterHrefKeeping(query, p.Summary.Counts[i].Group)
	}
	p.Servers.ClearHref = ServerFilterHrefKeeping(query, "")
}

// clearHref is the "show all" link's address.
func (p ServersSectionProps) clearHref() string {
	if p.ClearHref == "" {
		return ServerFilterHref("")
	}
	return p.ClearHref
}
