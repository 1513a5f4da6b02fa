package checkpoints

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/soni-dev/soni/internal/text"
)

// fileHeader starts every checkpoint file the [FileStore] writes, followed
// by the revision in decimal and a newline; the checkpoint's bytes follow,
// as the engine gave them. The store reads the revision from the header
// and never looks inside the checkpoint. A file without the header was
// written by a version before the header: its revision is its JSON's
// top-level "revision" field, read once, and a transaction that reads
// such a file writes it again with the header.
const fileHeader = "soni-file-store/v1 revision "

// maxHeader bounds the header line: the prefix, 20 digits and a newline.
const maxHeader = len(fileHeader) + 21

// appendHeader appends the header line of revision rev to b.
func appendHeader(b []byte, rev uint64) []byte {
	b = append(b, fileHeader...)
	b = strconv.AppendUint(b, rev, 10)
	return append(b, '\n')
}

// splitFile splits the contents of a checkpoint file into the checkpoint
// and its revision. legacy is true for a file without the header.
func splitFile(data []byte) (checkpoint []byte, rev uint64, legacy bool, err error) {
	if !bytes.HasPrefix(data, []byte(fileHeader)) {
		if bytes.HasPrefix([]byte(fileHeader), data) && len(data) > 0 {
			return nil, 0, false, errors.New("its header is cut short")
		}
		rev, err := legacyRevision(data)
		return data, rev, true, err
	}
	head := data[:min(len(data), maxHeader)]
	end := bytes.IndexByte(head, '\n')
	if end < 0 {
		return nil, 0, false, fmt.Errorf("its header %q has no end of line", text.Clip(string(head), 60))
	}
	digits := string(data[len(fileHeader):end])
	n, perr := strconv.ParseUint(digits, 10, 64)
	if perr != nil || n == 0 || digits != strconv.FormatUint(n, 10) {
		return nil, 0, false, fmt.Errorf("its header gives the revision %q, not an integer of at least 1", text.Clip(digits, 40))
	}
	return data[end+1:], n, false, nil
}

// legacyRevision reads the top-level "revision" field of a checkpoint
// file written before the header, through encoding/json, with the
// messages of every way the bytes can be wrong.
func legacyRevision(data []byte) (uint64, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return 0, errors.New("it is empty, not a JSON object")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return 0, fmt.Errorf("it is a JSON %s, not an object", typeErr.Value)
		}
		return 0, fmt.Errorf("it is not valid JSON: %w", err)
	}
	if top == nil {
		return 0, errors.New("it is JSON null, not an object")
	}
	raw, ok := top["revision"]
	if !ok {
		return 0, errors.New(`it has no top-level "revision" field`)
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf(`its "revision" is %q, not an integer of at least 1`, text.Clip(string(raw), 40))
	}
	return n, nil
}
