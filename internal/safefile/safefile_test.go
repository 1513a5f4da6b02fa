package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadFile reads every kind of path soni may be pointed at. None of
// them blocks (a FIFO with no writer would block a plain open forever) or
// reads past the limit (/dev/zero never ends).
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
		return p
	}
	ok := write("ok.yaml", "flows: {}\n")
	big := write("big.yaml", "0123456789")
	fifo := filepath.Join(dir, "fifo.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	zeroLink := filepath.Join(dir, "zero.yaml")
	require.NoError(t, os.Symlink("/dev/zero", zeroLink))
	okLink := filepath.Join(dir, "link.yaml")
	require.NoError(t, os.Symlink(ok, okLink))

	cases := []struct {
		name, path string
		want       string
		wantErr    string
		notRegular bool
	}{
		{name: "regular file", path: ok, want: "flows: {}\n"},
		{name: "link to a regular file", path: okLink, want: "flows: {}\n"},
		{name: "FIFO", path: fifo, wantErr: "not a regular file: it is a FIFO (named pipe)", notRegular: true},
		{name: "/dev/zero behind a link", path: zeroLink, wantErr: "not a regular file: it is a character device", notRegular: true},
		{name: "directory", path: dir, wantErr: "not a regular file: it is a directory", notRegular: true},
		{name: "over the limit", path: big, wantErr: "is 10 bytes, over the size limit of 5 bytes"},
		{name: "missing", path: filepath.Join(dir, "none.yaml"), wantErr: "no such file or directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadFile(tc.path, 5+int64(len(tc.want)))
			if tc.name == "over the limit" {
				b, err = ReadFile(tc.path, 5)
			}
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				assert.Equal(t, tc.notRegular, errors.Is(err, ErrNotRegular))
				var pe *fs.PathError
				if tc.notRegular {
					require.ErrorAs(t, err, &pe)
				}
				var tl *TooLargeError
				assert.Equal(t, tc.name == "over the limit", errors.As(err, &tl))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(b))
		})
	}
}
