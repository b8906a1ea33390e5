// @ts-check
// The account page: sign in or sign up (account.js does the work).
import { startAccountPage } from "./account.js";

startAccountPage();
