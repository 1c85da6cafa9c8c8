import { z } from "zod";
import { TRUE } from "../responses.ts";

export const ClientSecretResponse = z.strictObject({ status: TRUE, client_secret: z.string() });
