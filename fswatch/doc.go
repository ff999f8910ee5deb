// Package fswatch tells hot reload when a settings file may have changed.
//
// It watches the directory holding each file rather than the file itself,
// because editors save in ways that replace the file: writing a temporary
// file and renaming it over the original, or deleting and recreating it. A
// watch on the file would die with the old inode; a watch on the directory
// sees whatever file next carries the name. Only events for the watched
// names count; other files in the same directories are ignored, and so is a
// pure attribute change (Chmod), which editors, backup tools and indexers
// cause without touching content.
//
// One save is often several events (truncate, write, write; or create,
// rename), so events are debounced: each event restarts a quiet period of
// Options.Debounce, and when it passes one Change names every watched file
// that had events. Waiting for quiet, rather than a fixed window from the
// first event, lets a slow writer finish before the consumer reads.
//
// A Change only says a file may differ. Whether its content really changed
// is the consumer's question: it re-reads and re-parses the file and
// compares the result with what it last applied, so a save that changes
// nothing, or this program's own write, costs one parse and no reload.
// Keeping that here would mean parsing settings in a file-system package.
//
// A path that is a symbolic link is watched where the link lives, following
// the path as given: replacing or removing the link is seen, but a write to
// the link's target is not, unless the target is in the same directory and
// is itself one of the watched paths. Callers who edit through the link
// (settingsfile replaces the target) or who deploy by swapping a linked
// directory should also pass the resolved path.
//
// A watched directory need not exist. Until it does, its nearest existing
// ancestor is watched instead, and when the directory appears (even as
// part of `mkdir -p` with the file written at once) the watch moves onto
// it and a settings file already inside is reported as changed. A
// directory removed later is waited for in the same way. This is how a
// settings file the person has not created yet, in a directory that does
// not exist yet either, is picked up the moment it is written.
package fswatch
