// The png workload with one bug: 16-bit decodes are never .free()d.
import { pngScenario } from './png.mjs';

export default pngScenario({ name: 'png-leak', leak: true });
