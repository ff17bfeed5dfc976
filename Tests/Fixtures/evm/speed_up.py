"""A speed-up on a real EVM (eth-tester's py-evm backend), and the JSON-RPC answers a node
would give about it afterwards, for EVMSpeedUpTests.

The sender broadcasts a transfer, then a speed-up with the same nonce and higher fees; the
chain mines the speed-up (the original never is), then three more blocks. Prints one JSON
object: the sender, the nonce, both hashes, and `answers`: each JSON-RPC call the EVM status
provider makes about them (method, params) with the node's `result`, computed by the EVM.
"""
import json

from eth_tester import EthereumTester
from eth_tester.exceptions import TransactionNotFound

GWEI = 10**9


def quantity(value):
    return hex(value)


def main():
    tester = EthereumTester()
    sender, recipient = tester.get_accounts()[:2]
    tester.disable_auto_mine_transactions()
    nonce = tester.get_nonce(sender)
    transfer = {"from": sender, "to": recipient, "value": 10**15, "gas": 21000, "nonce": nonce}
    original = tester.send_transaction(dict(transfer, max_fee_per_gas=GWEI, max_priority_fee_per_gas=GWEI))
    speed_up = tester.send_transaction(dict(transfer, max_fee_per_gas=3 * GWEI, max_priority_fee_per_gas=3 * GWEI))
    tester.mine_blocks(4)
    latest = tester.get_block_by_number("latest")["number"]

    answers = []

    def answer(method, params, result):
        answers.append({"method": method, "params": params, "result": result})

    for tx_hash in (original, speed_up):
        try:
            receipt = tester.get_transaction_receipt(tx_hash)
            transaction = tester.get_transaction_by_hash(tx_hash)
        except TransactionNotFound:
            answer("eth_getTransactionReceipt", [tx_hash], None)
            answer("eth_getTransactionByHash", [tx_hash], None)
            continue
        answer(
            "eth_getTransactionReceipt",
            [tx_hash],
            {
                "transactionHash": tx_hash,
                "blockNumber": quantity(receipt["block_number"]),
                "status": quantity(receipt["status"]),
                "gasUsed": quantity(receipt["gas_used"]),
                "effectiveGasPrice": quantity(receipt["effective_gas_price"]),
                "from": transaction["from"],
                "to": transaction["to"],
            },
        )
        answer(
            "eth_getTransactionByHash",
            [tx_hash],
            {"hash": tx_hash, "blockNumber": quantity(transaction["block_number"]), "nonce": quantity(nonce)},
        )
    answer("eth_blockNumber", [], quantity(latest))
    answer("eth_getTransactionCount", [sender, "latest"], quantity(tester.get_nonce(sender)))
    for number in range(latest + 1):
        block = tester.get_block_by_number(number)
        answer("eth_getBlockByNumber", [quantity(number), False], {"number": quantity(number), "timestamp": quantity(block["timestamp"])})
        answer("eth_getTransactionCount", [sender, quantity(number)], quantity(tester.get_nonce(sender, number)))

    print(json.dumps({"sender": sender, "nonce": nonce, "original": original, "speedUp": speed_up, "answers": answers}))


if __name__ == "__main__":
    main()
