import { moneyInvariants } from './money-invariants';

// The first half of the 500 random money sequences (the second is money-invariants-b.test.ts).
moneyInvariants(29_16, 250);
