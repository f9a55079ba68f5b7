// A booking's money is derived in the contract (contract/money.ts), so the staff list and the API share it.
export { holdSatisfied, moneyOf, paidBySource, paidOf, payNow, priceOf, requiredOf } from '../../contract/money';
