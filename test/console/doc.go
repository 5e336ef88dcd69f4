// Package console holds the web console's browser tests: a seeded node
// (consoletest) and headless Chromium driven by chromedp, page by page, as
// the admin and as a user. It has no code of its own.
package console
