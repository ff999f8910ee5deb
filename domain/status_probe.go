package domain

// OnlyProbedSince reports whether s differs from prev only in what a
// keep-alive probe measures (its latency and when it answered) and in the
// hub's version stamp. Each connected server publishes such a snapshot
// every keepAliveSeconds; consumers that show no liveness, like the
// gateway's catalogue, skip them rather than rebuild everything for a
// new latency, which at 200 servers was most of what an idle Switchboard
// allocated.
func (s Status) OnlyProbedSince(prev Status) bool {
	s.Latency, s.HasLatency, s.ProbedAt, s.Version = prev.Latency, prev.HasLatency, prev.ProbedAt, prev.Version
	return s == prev
}
