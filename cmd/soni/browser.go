package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// browserCommand is the command that opens url in a browser: $BROWSER
// when set (its words, with %s replaced by the URL, or the URL appended),
// else the system's opener.
func browserCommand(url string) []string {
	if b := strings.Fields(os.Getenv("BROWSER")); len(b) > 0 {
		out, replaced := make([]string, len(b)), false
		for i, w := range b {
			if strings.Contains(w, "%s") {
				w, replaced = strings.ReplaceAll(w, "%s", url), true
			}
			out[i] = w
		}
		if !replaced {
			out = append(out, url)
		}
		return out
	}
	switch runtime.GOOS {
	case "darwin":
		return []string{"open", url}
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler", url}
	}
	return []string{"xdg-open", url}
}

// openBrowser starts the browser on url and does not wait for it. When
// none can be started it says so on stderr: the page works all the same
// from the address printed.
func openBrowser(e *env, url string) {
	argv := browserCommand(url)
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(e.stderr, "soni inspect: cannot open a browser (%s: %s): open %s yourself, or set BROWSER\n", argv[0], errText(err), url)
		return
	}
	go func() { _ = cmd.Wait() }()
}
