/** SQL for the generation of the ownership projections that queries read. */
export const ACTIVE_GENERATION = `(SELECT active FROM projection_generations WHERE projection = 'ownership')`;
