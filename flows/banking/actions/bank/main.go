// Command bank is the fake core-banking system behind the banking example's
// actions. Each action is a subcommand, run by soni as
//
//	go run ./actions/bank get_balance
//
// from the project directory (flows/banking). It reads the action request,
// {"action": ..., "session": ..., "inputs": {...}}, on stdin and prints one
// JSON object of outputs on stdout. A failure is a message on stderr and
// exit status 1, which soni reports as an action failure.
//
// The data is fixed so that conversations are reproducible: the balances
// are per account type, references are derived from the inputs, and the
// one-time code 000000 is the wrong one.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strings"
)

// balances are the fake accounts' balances, in EUR.
var balances = map[string]float64{"checking": 1520.50, "savings": 8200.00}

// etaDays is how many working days each delivery takes.
var etaDays = map[string]int{"standard": 7, "express": 2}

// maxRequest bounds the request read from stdin.
const maxRequest = 1 << 20

var (
	sixDigits  = regexp.MustCompile(`^[0-9]{6}$`)
	fourDigits = regexp.MustCompile(`^[0-9]{4}$`)
)

// request is what soni sends on stdin.
type request struct {
	Action  string         `json:"action"`
	Session string         `json:"session"`
	Inputs  map[string]any `json:"inputs"`
}

// actions maps each subcommand to its implementation.
var actions = map[string]func(in map[string]any) (map[string]any, error){
	"get_balance":   getBalance,
	"verify_code":   verifyCode,
	"make_transfer": makeTransfer,
	"block_card":    blockCard,
	"order_card":    orderCard,
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs one action and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 || actions[args[0]] == nil {
		fmt.Fprintf(stderr, "usage: bank ACTION (one of get_balance, verify_code, make_transfer, block_card, order_card); got %q\n", args)
		return 2
	}
	b, err := io.ReadAll(io.LimitReader(stdin, maxRequest+1))
	if err != nil || len(b) > maxRequest {
		fmt.Fprintln(stderr, "bank: cannot read the request on stdin")
		return 1
	}
	var req request
	if err := json.Unmarshal(b, &req); err != nil {
		fmt.Fprintf(stderr, "bank: the request is not JSON: %v\n", err)
		return 1
	}
	out, err := actions[args[0]](req.Inputs)
	if err != nil {
		fmt.Fprintf(stderr, "bank: %s: %v\n", args[0], err)
		return 1
	}
	if err := json.NewEncoder(stdout).Encode(out); err != nil {
		fmt.Fprintf(stderr, "bank: %v\n", err)
		return 1
	}
	return 0
}

func getBalance(in map[string]any) (map[string]any, error) {
	acct, err := account(in)
	if err != nil {
		return nil, err
	}
	return map[string]any{"balance": balances[acct], "currency": "EUR"}, nil
}

func verifyCode(in map[string]any) (map[string]any, error) {
	code, _ := in["otp_code"].(string)
	if !sixDigits.MatchString(code) {
		return nil, fmt.Errorf("otp_code %q is not six digits", code)
	}
	if code == "000000" {
		return nil, errors.New("the code is wrong or has expired")
	}
	return map[string]any{}, nil
}

func makeTransfer(in map[string]any) (map[string]any, error) {
	acct, err := account(in)
	if err != nil {
		return nil, err
	}
	recipient, _ := in["recipient"].(string)
	recipient = strings.TrimSpace(recipient)
	if recipient == "" {
		return nil, errors.New("recipient is not set")
	}
	amount, ok := in["amount"].(float64)
	if !ok || amount <= 0 || math.IsInf(amount, 0) {
		return nil, fmt.Errorf("amount %v is not a positive number", in["amount"])
	}
	if amount > balances[acct] {
		return nil, fmt.Errorf("insufficient funds: %.2f EUR in %s, %.2f EUR requested", balances[acct], acct, amount)
	}
	return map[string]any{"reference": "TR-" + digest(acct, recipient, fmt.Sprintf("%.2f", amount))}, nil
}

func blockCard(in map[string]any) (map[string]any, error) {
	card, err := cardLast4(in)
	if err != nil {
		return nil, err
	}
	// The card system tells the customer itself (an action that speaks).
	return map[string]any{
		"reference": "BLK-" + card + "-" + digest("block", card)[:4],
		"messages":  []any{map[string]any{"response": "utter_card_blocked"}},
	}, nil
}

func orderCard(in map[string]any) (map[string]any, error) {
	if _, err := cardLast4(in); err != nil {
		return nil, err
	}
	delivery, _ := in["delivery"].(string)
	days, ok := etaDays[delivery]
	if !ok {
		return nil, fmt.Errorf("unknown delivery %q: use standard or express", delivery)
	}
	return map[string]any{"eta_days": days}, nil
}

// account returns the account_type input, which must name a fake account.
func account(in map[string]any) (string, error) {
	acct, _ := in["account_type"].(string)
	if _, ok := balances[acct]; !ok {
		return "", fmt.Errorf("unknown account_type %q: use checking or savings", acct)
	}
	return acct, nil
}

// cardLast4 returns the card_last4 input, which must be four digits.
func cardLast4(in map[string]any) (string, error) {
	card, _ := in["card_last4"].(string)
	if !fourDigits.MatchString(card) {
		return "", fmt.Errorf("card_last4 %q is not four digits", card)
	}
	return card, nil
}

// digest derives a short reference from parts: the same inputs always give
// the same reference.
func digest(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return strings.ToUpper(hex.EncodeToString(sum[:4]))
}
