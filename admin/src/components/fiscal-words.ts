/* What the admin says of training receipts, in a module without zod: the shell's banner loads it. */

/** Training receipts have no fiscal effect. */
export const TRAINING_WARNING = 'Учебный режим: чеки не имеют фискальной силы';
/** Training's colour: a dark orange that white text (and text on white) reads at AA contrast (orange 9 is 4.3:1). */
export const TRAINING_COLOR = '#a23c07';
