package soni_test

import (
	"context"
	"fmt"
	"log"

	"github.com/soni-dev/soni"
	"github.com/soni-dev/soni/compiler"
	"github.com/soni-dev/soni/vm"
)

// A project small enough to keep in the program. Real projects live in a
// directory of YAML files and are loaded with soni.Load.
const bankYAML = `version: "1.0"
slots:
  account_type:
    type: categorical
    values:
      checking: [current]
      savings: [saving]
actions:
  get_balance:
    inputs: [account_type]
    outputs: [balance, currency]
flows:
  check_balance:
    trigger:
      intents: ["check my balance", "what's my balance"]
    slots:
      - name: balance
        type: number
      - name: currency
        type: text
    steps:
      - step: ask_account
        type: collect
        slot: account_type
        message: "Which account: checking or savings?"
      - step: fetch
        type: action
        call: get_balance
        map_outputs:
          balance: balance
          currency: currency
      - step: tell
        type: say
        message: "Your {account_type} balance is {balance} {currency}."
`

// Example loads a project, implements its action in Go and talks to it.
func Example() {
	res := compiler.CompileSource("bank.yaml", []byte(bankYAML), compiler.Options{})
	if res.Program == nil {
		log.Fatal(res.Diags.Err())
	}
	engine, err := soni.New(res.Program, soni.Options{})
	if err != nil {
		log.Fatal(err)
	}
	engine.Register("get_balance", func(ctx context.Context, req vm.ActionRequest) (map[string]any, error) {
		balances := map[string]float64{"checking": 1520.5, "savings": 8000}
		return map[string]any{"balance": balances[req.Inputs["account_type"].(string)], "currency": "EUR"}, nil
	})

	ctx := context.Background()
	for _, msg := range []string{"what's my balance", "savings"} {
		reply, err := engine.Handle(ctx, "customer-42", vm.Input{Text: msg})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("> " + msg)
		for _, line := range reply.Replies {
			fmt.Println(line)
		}
		fmt.Printf("(checkpoint revision %d)\n", reply.Revision)
	}
	// Output:
	// > what's my balance
	// Which account: checking or savings?
	// (checkpoint revision 1)
	// > savings
	// Your savings balance is 8000 EUR.
	// (checkpoint revision 2)
}
