import { moneyInvariants } from './money-invariants';

// The second half of the 500 random money sequences, from a seed of its own.
moneyInvariants(29_17, 250);
