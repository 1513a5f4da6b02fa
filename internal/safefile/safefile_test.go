package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

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

// TestReadAllWhateverTheSize reads the whole text whatever size the file
// was said to have when it was opened: the same, smaller (it grew since),
// larger (it shrank) or unknown, in reads of any length.
func TestReadAllWhateverTheSize(t *testing.T) {
	text := strings.Repeat("0123456789abcdef", 300) // 4,800 bytes
	for _, size := range []int64{0, 1, 511, 512, 4799, 4800, 4801, 5312, 9000} {
		for _, chunk := range []int{1, 7, 512, 100000} {
			b, err := readAll(iotest.HalfReader(&chunked{s: text, n: chunk}), size)
			require.NoError(t, err)
			assert.Equal(t, text, string(b), "size %d, reads of %d", size, chunk)
		}
	}
	_, err := readAll(iotest.ErrReader(errors.New("disk gone")), 10)
	require.EqualError(t, err, "disk gone")
}

// chunked reads s at most n bytes at a time.
type chunked struct {
	s string
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}
