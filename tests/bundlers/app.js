// The app each bundler builds: the plain import of the package.
import { Regulator } from "reins";
import { showLoopDecision } from "./loop.mjs";

showLoopDecision(Regulator);
