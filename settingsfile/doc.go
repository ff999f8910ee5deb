// Package settingsfile reads and edits settings files on disk. The rules of
// what a settings file means live in domain; this package only adds the
// file system: finding the file, reading it, and replacing it so that a
// crash or a second writer never leaves half a file behind.
package settingsfile
