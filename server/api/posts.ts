import { presentProductDetailsResponse } from "../../core/posts/presenter.ts";
import { ProductDetailsBody } from "../../core/posts/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { ProductDetailsResponse } from "../../core/posts/responses.ts";

export const postsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/product_details",
    tag: "Posts",
    summary:
      "A deal (type d) or educator post (type g) with its threaded comments; is_liked is the session user's reaction (1 like, 2 unlike, -1 none)",
    body: ProductDetailsBody,
    response: ProductDetailsResponse,
    handler: async ({ input, request }) =>
      presentProductDetailsResponse(
        await services.posts.details({
          uniqueId: input.unique_id,
          type: input.type,
          viewer: request.user,
          visitor: { ip: request.ip, userAgent: request.headers["user-agent"] },
        }),
      ),
  });
};
